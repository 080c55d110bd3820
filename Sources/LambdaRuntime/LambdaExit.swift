/// How a run ends, and the process's exit status for each. Lambda restarts a runtime that
/// exits; the statuses only tell a person reading the logs which step failed.
enum LambdaExit: Equatable {
    /// `AWS_LAMBDA_RUNTIME_API` is not set: not running under Lambda or its emulator.
    case runtimeAPINotConfigured
    /// The curl handle for the Runtime API could not be created (libcurl missing, say).
    case clientUnavailable
    /// The handler factory threw; its diagnostic went to `/runtime/init/error`.
    case initFailed(Diagnostic)
    /// The Runtime API failed while serving.
    case runtimeAPIFailed(RuntimeAPIFailure)
    /// The client had no more invocations (only a test double says so).
    case noMoreInvocations

    var status: Int32 {
        switch self {
        case .noMoreInvocations: 0
        case .initFailed: 1
        case .runtimeAPINotConfigured: 2
        case .clientUnavailable: 3
        case .runtimeAPIFailed: 4
        }
    }
}
