import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AccountTransfer
import StrictJSON

/// S3 and STS as the account flows use them, in memory, with S3's semantics: versions and delete
/// markers (when versioned), ETags that depend only on the bytes (two objects with the same body
/// have the same ETag, as with S3's MD5), user metadata and tags, `If-None-Match: *` and
/// `If-Match` on PUT (412), `If-Match` and `versionId` on DELETE, ListObjectsV2 in key order.
/// Not thread-safe: the simulation's scheduler lets one caller in at a time.
package final class SimulatedS3 {
    package struct Version {
        package var body: [UInt8]
        package var etag: String
        package var contentType: String
        package var metadata: [(String, String)]
        package var tags: [(String, String)]
        package var versionID: String
        package var isDeleteMarker: Bool
    }

    package let versioned: Bool
    /// Every version of every key, oldest first (unversioned: at most one).
    package private(set) var history: [String: [Version]] = [:]
    private var versionCounter = 0
    private var credentialsCounter = 0
    /// AssumeRole requests answered, in order.
    package private(set) var assumed: [AssumeRoleRequest] = []

    /// Incomplete multipart uploads (their parts are no versions).
    package private(set) var uploads: [S3Upload] = []
    private var uploadCounter = 0
    /// Prefixes where every purge call fails (a deletion that keeps failing).
    package var poisonedPrefixes: Set<String> = []

    package init(versioned: Bool = true) { self.versioned = versioned }

    /// CreateMultipartUpload, as a user's credentials may start one under their prefix.
    @discardableResult
    package func startUpload(_ key: String) -> S3Upload {
        uploadCounter += 1
        let upload = S3Upload(key: key, uploadID: "upload-\(uploadCounter)")
        uploads.append(upload)
        return upload
    }

    private func poisonedFailure(_ key: String) -> AWSError? {
        guard poisonedPrefixes.contains(where: { key.hasPrefix($0) }) else { return nil }
        return AWSError(kind: .unavailable, code: "InternalError", message: "simulated: always fails", status: 500)
    }

    private func removeVersion(_ key: String, _ versionID: String) {
        history[key]?.removeAll { $0.versionID == versionID }
        if history[key]?.isEmpty == true { history[key] = nil }
    }

    package func current(_ key: String) -> Version? {
        guard let v = history[key]?.last, !v.isDeleteMarker else { return nil }
        return v
    }

    /// Every version and delete marker under `prefix` (what a purge must leave empty).
    package func versions(under prefix: String) -> Int {
        history.filter { $0.key.hasPrefix(prefix) }.reduce(0) { $0 + $1.value.count }
    }

    /// Keys with a current object, sorted (byte order, as S3 lists them).
    package var keys: [String] {
        history.keys.filter { current($0) != nil }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    package func text(_ key: String) -> String? { current(key).map { String(decoding: $0.body, as: UTF8.self) } }

    package func json(_ key: String) -> JSONValue? { current(key).flatMap { try? JSONParser.parse($0.body) } }

    /// Writes an object directly (test set-up), as an unconditional PUT would.
    @discardableResult
    package func store(
        _ key: String, _ body: [UInt8], contentType: String = "application/json", metadata: [(String, String)] = []
    ) -> String {
        write(key, body, contentType: contentType, metadata: metadata, tags: [])
    }

    /// Answers one call as S3/STS would.
    package func apply(_ call: AWSCall) -> Result<AWSCallOutcome, AWSError> {
        switch call {
        case .s3Get(let key):
            if let problem = ObjectKeyRule.problem(key) {
                return .failure(AWSError(kind: .invalidRequest, message: problem))
            }
            guard let v = current(key) else { return .success(.object(nil)) }
            return .success(
                .object(
                    S3Object(
                        body: v.body, etag: v.etag, contentType: v.contentType, metadata: v.metadata,
                        versionID: versioned ? v.versionID : nil)))
        case .s3Put(let put):
            if let problem = ObjectKeyRule.problem(put.key) {
                return .failure(AWSError(kind: .invalidRequest, message: problem))
            }
            switch put.condition {
            case .ifNoneMatch where current(put.key) != nil: return .success(.stored(.preconditionFailed))
            case .ifMatch(let etag) where current(put.key)?.etag != etag: return .success(.stored(.preconditionFailed))
            default: break
            }
            return .success(
                .stored(
                    .stored(
                        etag: write(
                            put.key, put.body, contentType: put.contentType, metadata: put.metadata, tags: put.tags))))
        case .s3Delete(let key, let condition):
            if let problem = ObjectKeyRule.problem(key) {
                return .failure(AWSError(kind: .invalidRequest, message: problem))
            }
            switch condition {
            case .none:
                removeCurrent(key)
            case .ifMatch(let etag):
                guard let v = current(key) else { return .success(.deleted(.deleted)) }  // 404: nothing to delete
                guard v.etag == etag else { return .success(.deleted(.preconditionFailed)) }
                removeCurrent(key)
            case .version(let id):
                history[key]?.removeAll { $0.versionID == id }
                if history[key]?.isEmpty == true { history[key] = nil }
            }
            return .success(.deleted(.deleted))
        case .s3List(let prefix, let startAfter):
            // Filtered before sorting: the store may hold many keys elsewhere.
            let all = history.keys.filter { key in
                key.hasPrefix(prefix) && current(key) != nil
                    && (startAfter.map { $0.utf8.lexicographicallyPrecedes(key.utf8) } ?? true)
            }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return .success(
                .listing(
                    S3Listing(
                        keys: Array(all.prefix(1000)), isTruncated: all.count > 1000,
                        continuationToken: all.count > 1000 ? "more" : nil)))
        case .s3ListPage(let request):
            if let problem = ObjectKeyRule.prefixProblem(request.prefix) {
                return .failure(AWSError(kind: .invalidRequest, message: problem))
            }
            return .success(.listing(listPage(request)))
        case .s3ListVersions(let prefix, let marker):
            guard !prefix.isEmpty else {
                return .failure(AWSError(kind: .invalidRequest, message: "a version listing needs a prefix"))
            }
            if let failure = poisonedFailure(prefix) { return .failure(failure) }
            // Keys in order, each key's versions newest first, delete markers among them (as S3 lists).
            var all: [S3ObjectVersion] = []
            for key in history.keys.filter({ $0.hasPrefix(prefix) }).sorted(by: {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }) {
                for v in history[key]!.reversed() {
                    all.append(S3ObjectVersion(key: key, versionID: v.versionID, isDeleteMarker: v.isDeleteMarker))
                }
            }
            if let marker {
                // A marker whose version is gone finds nothing after it (moto's answer; S3 does
                // not document the case): a purge must not delete its marker before listing on.
                guard let i = all.firstIndex(where: { $0.key == marker.key && $0.versionID == marker.versionID }) else {
                    return .success(.versions(S3VersionListing(versions: [], next: nil)))
                }
                all.removeFirst(i + 1)
            }
            let page = Array(all.prefix(1000))
            let next =
                all.count > 1000 ? S3VersionListing.Marker(key: page.last!.key, versionID: page.last!.versionID) : nil
            return .success(.versions(S3VersionListing(versions: page, next: next)))
        case .s3DeleteVersions(let versions):
            guard !versions.isEmpty, versions.count <= 1000 else {
                return .failure(AWSError(kind: .invalidRequest, message: "1 to 1000"))
            }
            if let failure = poisonedFailure(versions[0].key) { return .failure(failure) }
            // S3 reads the body the client sends, after XML's rules (S3XMLRules): the whole batch
            // is refused, or each key is read as its parser reads it (in quiet mode a version
            // that is not there counts as deleted: nothing reports it).
            guard let named = S3XMLRules.deleteObjects(S3Client.deleteObjectsBody(versions)) else {
                return .failure(
                    AWSError(kind: .invalidRequest, code: "MalformedXML", message: "malformed XML", status: 400))
            }
            for v in named { removeVersion(v.key, v.versionID) }
            return .success(.deletedVersions(S3BatchDeleteOutcome(deleted: versions.count, failed: [])))
        case .s3DeleteListedVersion(let v):
            if let failure = poisonedFailure(v.key) { return .failure(failure) }
            removeVersion(v.key, v.versionID)
            return .success(.deleted(.deleted))
        case .s3ListUploads(let prefix, let marker):
            if let failure = poisonedFailure(prefix) { return .failure(failure) }
            let all = uploads.filter { $0.key.hasPrefix(prefix) }.sorted {
                ($0.key, $0.uploadID) < ($1.key, $1.uploadID)
            }
            .filter { u in marker.map { ($0.key, $0.uploadID) < (u.key, u.uploadID) } ?? true }
            let page = Array(all.prefix(1000))
            return .success(.uploads(S3UploadListing(uploads: page, next: all.count > 1000 ? page.last : nil)))
        case .s3AbortUpload(let upload):
            uploads.removeAll { $0 == upload }
            return .success(.deleted(.deleted))
        case .assumeRole(let request):
            assumed.append(request)
            credentialsCounter += 1
            return .success(
                .credentials(
                    TemporaryCredentials(
                        accessKeyID: "ASIASIMULATED\(credentialsCounter)", secretAccessKey: "simulated-secret",
                        sessionToken: "simulated-session-\(credentialsCounter)", expiration: "2030-01-01T00:00:00Z")))
        }
    }

    private func write(
        _ key: String, _ body: [UInt8], contentType: String, metadata: [(String, String)], tags: [(String, String)]
    ) -> String {
        versionCounter += 1
        let v = Version(
            body: body, etag: SimulatedS3.etag(body), contentType: contentType, metadata: metadata, tags: tags,
            versionID: "v\(versionCounter)", isDeleteMarker: false)
        if versioned { history[key, default: []].append(v) } else { history[key] = [v] }
        return v.etag
    }

    private func removeCurrent(_ key: String) {
        if versioned {
            guard history[key] != nil else { return }
            versionCounter += 1
            history[key]!.append(
                Version(
                    body: [], etag: "", contentType: "", metadata: [], tags: [], versionID: "v\(versionCounter)",
                    isDeleteMarker: true))
        } else {
            history[key] = nil
        }
    }

    /// Like S3's MD5 ETag, a function of the bytes only (FNV-1a 64 here: enough to tell bodies apart).
    package static func etag(_ body: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in body { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
