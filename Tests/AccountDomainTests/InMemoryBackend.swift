import AWSClients
import CurlHTTP
@testable import AccountDomain

/// A test double for what no real component can do on demand: inject a fault, or let another
/// writer win a race at an exact moment. Conditional writes behave as S3's do.
final class InMemoryBackend: AccountBackend {
    struct Stored { var body: [UInt8]; var etag: String; var contentType: String }
    var objects: [String: Stored] = [:]
    var etagCounter = 0
    var rounds = 0
    var requests = 0
    var assumed: [AssumeRoleRequest] = []
    /// Called before each operation; may mutate the store (a racing writer) or return a fault.
    var intercept: ((BackendOperation, InMemoryBackend) -> AWSError?)?

    func run(_ operations: [BackendOperation], deadline: Deadline) -> [Result<BackendOutcome, AWSError>] {
        rounds += 1
        return operations.map { op in
            requests += 1
            if let fault = intercept?(op, self) { return .failure(fault) }
            switch op {
            case .get(let key):
                return .success(.object(objects[key].map { S3Object(body: $0.body, etag: $0.etag, contentType: $0.contentType) }))
            case .put(let put):
                switch put.condition {
                case .ifNoneMatch where objects[put.key] != nil: return .success(.stored(.preconditionFailed))
                case .ifMatch(let e) where objects[put.key]?.etag != e: return .success(.stored(.preconditionFailed))
                default: break
                }
                return .success(.stored(.stored(etag: store(put.key, put.body, put.contentType))))
            case .delete(let key):
                objects[key] = nil
                return .success(.deleted)
            case .assumeRole(let r):
                assumed.append(r)
                return .success(.credentials(TemporaryCredentials(accessKeyID: "ASIATEST", secretAccessKey: "test-secret", sessionToken: "test-session", expiration: "2030-01-01T00:00:00Z")))
            }
        }
    }

    @discardableResult
    func store(_ key: String, _ body: [UInt8], _ type: String = "application/json") -> String {
        etagCounter += 1
        let etag = "\"etag-\(etagCounter)\""
        objects[key] = Stored(body: body, etag: etag, contentType: type)
        return etag
    }

    func text(_ key: String) -> String? { objects[key].map { String(decoding: $0.body, as: UTF8.self) } }
}
