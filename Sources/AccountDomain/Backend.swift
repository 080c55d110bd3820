import AWSClients
import CurlHTTP

/// One S3 or STS call. The domain hands the backend a batch of these per network round, so
/// independent calls — S3 reads and writes and the STS AssumeRole — overlap on the wire.
public enum BackendOperation: Sendable {
    case get(key: String)
    case put(S3Put)
    case delete(key: String)
    case assumeRole(AssumeRoleRequest)
}

public enum BackendOutcome: Sendable {
    case object(S3Object?)
    case stored(S3PutOutcome)
    case deleted
    case credentials(TemporaryCredentials)
}

/// Runs a batch of operations at once (each with its own bounded retries) and returns their
/// outcomes in order. Implemented over S3/STS (`AWSBackend`) and, for fault and race tests only,
/// in memory.
public protocol AccountBackend: AnyObject {
    func run(_ operations: [BackendOperation], deadline: Deadline) -> [Result<BackendOutcome, AWSError>]
}

extension AccountBackend {
    func get(_ key: String, deadline: Deadline) throws(AccountError) -> S3Object? {
        try AccountError.unwrapObject(run([.get(key: key)], deadline: deadline)[0])
    }

    func put(_ put: S3Put, deadline: Deadline) throws(AccountError) -> S3PutOutcome {
        try AccountError.unwrapStored(run([.put(put)], deadline: deadline)[0])
    }

    func delete(_ key: String, deadline: Deadline) throws(AccountError) {
        switch run([.delete(key: key)], deadline: deadline)[0] {
        case .success: return
        case .failure(let e): throw .upstream(e)
        }
    }
}
