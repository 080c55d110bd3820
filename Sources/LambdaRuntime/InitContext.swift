/// What the handler factory gets during init (before the first invocation).
package struct InitContext: Sendable {
    package let logger: Logger
    package let functionName: String
}
