/// Every failure of the client, with what the UI should do about it (`recommendation`). Messages
/// never hold a token, a secret or a credential.
public enum SignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The function answered with the contract's error envelope.
    case server(ErrorCode, message: String, status: Int?)
    /// The request never left: offline, DNS, no connection, TLS. Nothing was cleared.
    case offline(detail: String)
    /// No answer in time (after the function's own timeout had passed). Nothing was cleared.
    case timedOut
    /// The request may have reached the function, but its answer was lost (the connection broke
    /// after it was sent). Nothing was cleared; a refresh retries it with the same token.
    case answerLost(detail: String)
    /// An HTTP 429 or 5xx without an envelope (Lambda's throttle, a gateway). Nothing was cleared.
    case unavailable(status: Int)
    /// The answer is not what the contract says; `path` names the field (`data.credentials.expiration`).
    case malformedAnswer(action: String, path: String, detail: String)
    /// No session: sign in first.
    case notSignedIn
    /// The session store could not be read (a locked Keychain): the state is unknown, not signed out.
    case storeUnavailable(detail: String)
    /// This process may not refresh (an app extension, `refreshPolicy: .readOnly`); the app will.
    case refreshNotAllowed
    /// The user signed out or switched accounts while this call was under way; its answer was dropped.
    case sessionChanged
    /// The task was cancelled before the call went out.
    case cancelled

    public var description: String {
        switch self {
        case .server(let code, let message, let status):
            return "\(code.rawValue)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
        case .offline(let detail): return "offline: \(detail)"
        case .timedOut: return "timed out"
        case .answerLost(let detail): return "answer lost: \(detail)"
        case .unavailable(let status): return "service unavailable (HTTP \(status))"
        case .malformedAnswer(let action, let path, let detail):
            return "malformed answer to \(action): \(path.isEmpty ? "body" : path) \(detail)"
        case .notSignedIn: return "not signed in"
        case .storeUnavailable(let detail): return "session store unavailable: \(detail)"
        case .refreshNotAllowed: return "this process does not refresh the session (read-only)"
        case .sessionChanged: return "the session changed while the call was under way"
        case .cancelled: return "cancelled"
        }
    }

    /// The contract's code when the function answered with one.
    public var code: ErrorCode? {
        if case .server(let code, _, _) = self { return code }
        return nil
    }

    /// A definitive answer about the session itself: the client clears it (and only on these).
    var endsSession: Bool {
        guard let code else { return false }
        return code == .sessionInvalid || code == .accountNotFound || code == .accountDisabled
    }

    /// Worth the same call again, with the same token: nothing was consumed on the server, or the
    /// answer that consumed it never reached us (a retry gets a new one: v5 accepts the rotated-out
    /// token until its successor is presented).
    var isRetryable: Bool {
        switch self {
        case .offline, .timedOut, .answerLost, .unavailable, .malformedAnswer: return true
        case .server(let code, _, _): return code == .upstreamUnavailable || code == .conflict
        default: return false
        }
    }

    /// The function may have run and rotated the token without our reading its answer: a timeout,
    /// an answer lost or unreadable, a 5xx from behind the front door. Not an envelope (a failed
    /// call consumes nothing), not a request that never left, not a throttle (429, 503: Lambda did
    /// not invoke). The token stays marked (`unansweredSince`) and is retried whenever next needed.
    var mayHaveRotated: Bool {
        switch self {
        case .timedOut, .answerLost, .malformedAnswer: return true
        case .unavailable(let status): return status != 429 && status != 503
        default: return false
        }
    }

    public var recommendation: UIRecommendation {
        switch self {
        case .server(let code, _, _): return UIRecommendation(code)
        case .offline, .timedOut, .answerLost, .unavailable, .storeUnavailable, .cancelled, .sessionChanged:
            return .retryLater
        case .malformedAnswer: return .retryLater
        case .notSignedIn: return .signInAgain
        case .refreshNotAllowed: return .retryLater
        }
    }
}
