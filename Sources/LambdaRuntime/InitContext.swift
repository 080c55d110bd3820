/// What the handler factory gets during init (before the first invocation).
public struct InitContext: Sendable {
    public let logger: Logger
    public let functionName: String
}
