import AWSClients

/// Outcomes the account domain reports; AuthService maps each to the contract's error code.
public enum AccountError: Error, Sendable {
    case accountNotFound
    case accountAlreadyExists
    case providerAlreadyLinked
    case providerNotLinked
    case lastProvider
    case sessionInvalid(reason: String)
    case reauthenticationRequired
    /// A concurrent change kept winning and the bounded retry did not settle.
    case conflict(String)
    /// S3 or STS failed after retries, or the deadline is near.
    case upstream(AWSError)
    /// A stored document is unreadable: reported as a bug, never silently overwritten.
    case corruptDocument(key: String, reason: String)

    static func unwrapObject(_ r: Result<BackendOutcome, AWSError>) throws(AccountError) -> S3Object? {
        switch r {
        case .success(.object(let o)): return o
        case .success: throw .corruptDocument(key: "-", reason: "backend answered a get with another outcome")
        case .failure(let e): throw .upstream(e)
        }
    }

    static func unwrapStored(_ r: Result<BackendOutcome, AWSError>) throws(AccountError) -> S3PutOutcome {
        switch r {
        case .success(.stored(let o)): return o
        case .success: throw .corruptDocument(key: "-", reason: "backend answered a put with another outcome")
        case .failure(let e): throw .upstream(e)
        }
    }

    static func unwrapCredentials(_ r: Result<BackendOutcome, AWSError>) throws(AccountError) -> TemporaryCredentials {
        switch r {
        case .success(.credentials(let c)): return c
        case .success: throw .corruptDocument(key: "-", reason: "backend answered AssumeRole with another outcome")
        case .failure(let e): throw .upstream(e)
        }
    }
}
