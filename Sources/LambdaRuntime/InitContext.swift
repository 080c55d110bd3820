/// What the handler factory gets during init (before the first invocation).
package struct InitContext: Sendable {
    package let logger: Logger
    package let functionName: String

    /// `Lambda.run` makes it; the micro-benchmarks (Benchmarks/) start the functions' handlers with one too.
    package init(logger: Logger, functionName: String) {
        self.logger = logger
        self.functionName = functionName
    }
}
