/// What the run loop needs from the Lambda Runtime API, and nothing more: the seam the loop is
/// unit-tested through (as swift-aws-lambda-runtime's `LambdaRuntimeClientProtocol`). The curl
/// client (`RuntimeAPIClient`) is the one production conformer; the tests' mock serves a fixed
/// script of invocations and records every request the loop makes.
///
/// Every method throws `RuntimeAPIFailure` when the Runtime API cannot be reached or answers in a
/// way the process cannot recover from; the loop then ends and the process exits non-zero.
protocol RuntimeAPIClientProtocol: AnyObject {
    /// The next invocation (`GET /runtime/invocation/next`, a long poll). `nil` means there will be
    /// no more: Lambda never says so (it freezes or stops the process instead), but a test double
    /// does, so that a loop under test ends.
    func next() throws(RuntimeAPIFailure) -> Invocation?

    /// Posts the handler's answer. Returns the HTTP status below 500 (202 expected; 413 means the
    /// answer was too large); 5xx throws.
    func postResponse(requestID: String, body: [UInt8]) throws(RuntimeAPIFailure) -> Int

    /// Reports the invocation as failed (Lambda counts a function error).
    func postInvocationError(requestID: String, _ diagnostic: Diagnostic) throws(RuntimeAPIFailure)

    /// Reports a failed init; the process exits afterwards, before any `next`.
    func postInitError(_ diagnostic: Diagnostic) throws(RuntimeAPIFailure)
}
