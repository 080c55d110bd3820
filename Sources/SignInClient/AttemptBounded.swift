import Foundation

/// A transport that bounds each attempt (`FunctionURLTransport`, `LambdaInvokeTransport`): how long
/// another process's refresh attempt may still be at the server, so a process that finds its
/// in-flight mark waits that long at most before presenting the same token itself.
protocol AttemptBounded {
    func attemptTimeout(for function: SignInFunction) -> TimeInterval
}

extension FunctionURLTransport: AttemptBounded {}
extension LambdaInvokeTransport: AttemptBounded {}

extension SignInConfiguration {
    /// How long an attempt of another process may still be under way after it left: the
    /// transport's bound (the function's timeout + allowance), its task deadline (1 s) and a
    /// second's margin; the template's bound when the transport does not say.
    var otherAttemptBound: TimeInterval {
        let bound =
            (transport as? any AttemptBounded)?.attemptTimeout(for: .refresh)
            ?? SignInFunction.refresh.templateTimeout + 5
        return bound + 2
    }
}
