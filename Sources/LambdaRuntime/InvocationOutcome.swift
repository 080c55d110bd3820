import StrictJSON

/// What became of one invocation, for its log line.
enum InvocationOutcome: Equatable {
    /// The answer was posted and accepted.
    case ok
    /// The handler threw, or its answer was too large: reported at the error endpoint.
    case error(errorType: String)
    /// The Runtime API refused the answer with a 4xx other than 413.
    case rejected(status: Int)

    var level: Logger.Level { self == .ok ? .info : .error }

    /// `outcome` first, then `durationMs`, then what explains a failure.
    func fields(durationMs: String) -> [(String, JSONValue)] {
        switch self {
        case .ok: [("outcome", "ok"), ("durationMs", .number(durationMs))]
        case .error(let type):
            [("outcome", "error"), ("durationMs", .number(durationMs)), ("errorType", .string(type))]
        case .rejected(let status):
            [("outcome", "rejected"), ("durationMs", .number(durationMs)), ("status", .int(status))]
        }
    }
}
