import CurlHTTP
import PlatformSupport
import SigV4

/// The object-key rule this service holds itself to, checked before any request is sent:
/// 1–1024 bytes of `A-Z a-z 0-9 . _ - /`, not starting with `/`, no empty segment (`//`) and no
/// `.` or `..` segment. A trailing `/` is allowed (the `users/{uuid}/` markers). Every key the
/// contract defines fits (`identities/{provider}/{providerID}` with providerID
/// `[A-Za-z0-9._-]{1,255}` other than `.`/`..`, and `users/{uuid}/...`); anything else is a bug
/// or an attack, so it never reaches S3.
public enum ObjectKeyRule {
    public static let maxBytes = 1024

    /// Nil when `key` is acceptable, else why not (no key text in the reason).
    public static func problem(_ key: String) -> String? { check(key, isPrefix: false) }

    /// The same rule for a list prefix, which may also be empty.
    public static func prefixProblem(_ prefix: String) -> String? { prefix.isEmpty ? nil : check(prefix, isPrefix: true) }

    static func check(_ key: String, isPrefix: Bool) -> String? {
        let bytes = Array(key.utf8)
        guard !bytes.isEmpty else { return "object key is empty" }
        guard bytes.count <= maxBytes else { return "object key is longer than \(maxBytes) bytes" }
        for b in bytes {
            switch b {
            case _ where ASCII.isAlphanumeric(b), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                continue
            default:
                return "object key has a character outside [A-Za-z0-9._/-]"
            }
        }
        guard bytes.first != UInt8(ascii: "/") else { return "object key starts with /" }
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        for (n, segment) in segments.enumerated() {
            let isLast = n == segments.count - 1
            if segment.isEmpty && !isLast { return "object key has an empty segment (//)" }
            if segment == "." || segment == ".." { return "object key has a . or .. segment" }
        }
        _ = isPrefix
        return nil
    }
}

public struct S3Object: Sendable {
    public var body: [UInt8]
    /// Exactly as S3 sent it, quotes included: pass it back unchanged to `.ifMatch`.
    public var etag: String
    public var contentType: String?
    /// User metadata (`x-amz-meta-*`), names lowercase without the prefix.
    public var metadata: [(String, String)]
    /// `x-amz-version-id` in a versioned bucket; nil when the bucket is not versioned (S3 then
    /// sends no header, or `null`).
    public var versionID: String?

    public init(body: [UInt8], etag: String, contentType: String?, metadata: [(String, String)] = [], versionID: String? = nil) {
        self.body = body
        self.etag = etag
        self.contentType = contentType
        self.metadata = metadata
        self.versionID = versionID
    }

    /// The value of one user-metadata entry (name lowercase, without `x-amz-meta-`).
    public func metadata(_ name: String) -> String? { metadata.first { $0.0 == name }?.1 }
}

public enum S3PutCondition: Sendable, Equatable {
    /// Unconditional.
    case none
    /// `If-None-Match: *`: create only.
    case ifNoneMatch
    /// `If-Match: <etag>`: replace only the version that was read.
    case ifMatch(String)
}

public enum S3PutOutcome: Sendable, Equatable {
    case stored(etag: String)
    /// The condition did not hold: the key exists (`.ifNoneMatch`), or it changed or is gone (`.ifMatch`).
    case preconditionFailed
}

public struct S3Put: Sendable {
    public var key: String
    public var body: [UInt8]
    public var contentType: String
    public var condition: S3PutCondition
    /// User metadata: sent as `x-amz-meta-<name>`; names `[a-z0-9-]`, values printable ASCII.
    public var metadata: [(String, String)]
    /// Object tags (`x-amz-tagging`), e.g. for a lifecycle rule; keys and values `[A-Za-z0-9._-]`.
    public var tags: [(String, String)]

    public init(key: String, body: [UInt8], contentType: String, condition: S3PutCondition = .none, metadata: [(String, String)] = [],
                tags: [(String, String)] = []) {
        self.key = key
        self.body = body
        self.contentType = contentType
        self.condition = condition
        self.metadata = metadata
        self.tags = tags
    }
}

/// Which object a DeleteObject may remove.
public enum S3DeleteCondition: Sendable, Equatable {
    /// Whatever is there (a delete marker in a versioned bucket).
    case none
    /// Exactly this version, permanently (`?versionId=`): a version that is no longer there is
    /// left alone, so a later object under the same key is never removed by mistake.
    case version(String)
    /// `If-Match: <etag>`: only the current object, if it still has this ETag.
    case ifMatch(String)
}

public enum S3DeleteOutcome: Sendable, Equatable {
    /// Deleted, or there was nothing to delete.
    case deleted
    /// `.ifMatch`: the current object has another ETag.
    case preconditionFailed
}

/// One page of ListObjectsV2.
public struct S3Listing: Sendable, Equatable {
    public var keys: [String]
    /// More keys follow this page.
    public var isTruncated: Bool
    public var continuationToken: String?

    public init(keys: [String], isTruncated: Bool, continuationToken: String? = nil) {
        self.keys = keys
        self.isTruncated = isTruncated
        self.continuationToken = continuationToken
    }
}

/// S3 object operations on one bucket, signed with the function's credentials. Synchronous; one
/// per process alongside the one `HTTPClient`. See `SignedTransport` for retries and deadlines.
public final class S3Client {
    public let bucket: String
    private let endpoint: AWSEndpoint
    private let transport: SignedTransport
    private let bucketProblem: String?
    /// Prefix for every request path: the endpoint's base path, plus `/bucket` when path-style.
    private let pathPrefix: String
    /// Pages `list` follows at most (1000 keys each).
    public var maxListPages = 100

    /// Default upper bound for one attempt.
    public static let defaultRequestTimeoutMilliseconds = 5_000

    public init(http: HTTPClient, config: AWSConfig, bucket: String, retry: RetryPolicy = .init()) {
        self.bucket = bucket
        var endpoint = config.s3Endpoint
        let problem = S3Client.bucketProblem(bucket)
        // Virtual-hosted addressing needs a DNS label; a bucket with dots would also break the
        // TLS wildcard, so such buckets (and every configured endpoint) go path-style.
        if !endpoint.pathStyle && bucket.utf8.contains(UInt8(ascii: ".")) { endpoint.pathStyle = true }
        self.endpoint = endpoint
        self.bucketProblem = problem
        let host = endpoint.pathStyle ? endpoint.host : bucket.lowercased() + "." + endpoint.host
        var hostEndpoint = endpoint
        hostEndpoint.host = host
        pathPrefix = endpoint.basePath + (endpoint.pathStyle ? "/" + SigV4.encodePath(bucket) : "")
        transport = SignedTransport(http: http, credentials: config.credentials, service: "s3", region: config.region,
                                    scheme: endpoint.scheme, hostHeader: hostEndpoint.hostHeader, authority: hostEndpoint.authority,
                                    retry: retry, requestTimeoutCapMilliseconds: S3Client.defaultRequestTimeoutMilliseconds)
    }

    /// Upper bound for one attempt (the deadline usually binds first).
    public var requestTimeoutMilliseconds: Int {
        get { transport.requestTimeoutCapMilliseconds }
        set { transport.requestTimeoutCapMilliseconds = newValue }
    }

    /// Requests sent by this client so far, retries included.
    public var attemptsSent: Int { transport.attemptsSent }

    // MARK: GetObject

    /// The object, or nil when there is no such key.
    public func get(_ key: String, deadline: Deadline) throws(AWSError) -> S3Object? {
        try getAll([key], deadline: deadline)[0].get()
    }

    /// Several GetObjects at once (overlapped on the wire), results in order.
    public func getAll(_ keys: [String], deadline: Deadline) -> [Result<S3Object?, AWSError>] {
        PreparedCall.run(keys.map(prepareGet), deadline: deadline)
    }

    func prepareGet(_ key: String) -> PreparedCall<S3Object?> {
        PreparedCall(transport: transport, request: checkKey(key).map { OperationRequest(method: "GET", path: path(for: key), accept: [404]) }) {
            response throws(AWSError) -> S3Object? in
            if response.status == 404 { return try S3Client.missingKey(response) }
            guard response.status == 200 else { throw S3Client.unexpected(response) }
            let version = response.header("x-amz-version-id").flatMap { $0.isEmpty || $0 == "null" ? nil : $0 }
            return S3Object(body: response.body, etag: response.header("ETag") ?? "", contentType: response.header("Content-Type"),
                            metadata: S3Client.metadata(response), versionID: version)
        }
    }

    // MARK: HeadObject

    /// ETag, content type and size, or nil when there is no such key.
    public func head(_ key: String, deadline: Deadline) throws(AWSError) -> (etag: String, contentType: String?, size: Int)? {
        try run([checkKey(key).map { OperationRequest(method: "HEAD", path: path(for: key), accept: [404]) }], deadline: deadline) {
            response throws(AWSError) -> (etag: String, contentType: String?, size: Int)? in
            // A HEAD answer has no body, so a missing bucket cannot be told from a missing key.
            if response.status == 404 { return nil }
            guard response.status == 200 else { throw S3Client.unexpected(response) }
            return (response.header("ETag") ?? "", response.header("Content-Type"), Int(response.header("Content-Length") ?? "") ?? 0)
        }[0].get()
    }

    // MARK: PutObject

    public func put(_ put: S3Put, deadline: Deadline) throws(AWSError) -> S3PutOutcome {
        try putAll([put], deadline: deadline)[0].get()
    }

    /// Several PutObjects at once (overlapped on the wire), results in order.
    public func putAll(_ puts: [S3Put], deadline: Deadline) -> [Result<S3PutOutcome, AWSError>] {
        PreparedCall.run(puts.map(preparePut), deadline: deadline)
    }

    func preparePut(_ put: S3Put) -> PreparedCall<S3PutOutcome> {
        PreparedCall(transport: transport, request: checkKey(put.key).flatMap { _ in S3Client.putRequest(put, path: path(for: put.key)) }) {
            response throws(AWSError) -> S3PutOutcome in
            switch response.status {
            case 200:
                return .stored(etag: response.header("ETag") ?? "")
            case 412:
                return .preconditionFailed
            case 404:
                // If-Match on a key that is gone: some S3 implementations answer 404 NoSuchKey.
                let error = ErrorClassifier.describe(response)
                if error.code == nil || error.code == "NoSuchKey" { return .preconditionFailed }
                throw error
            default:
                throw S3Client.unexpected(response)
            }
        }
    }

    static func putRequest(_ put: S3Put, path: String) -> Result<OperationRequest, AWSError> {
        guard isHeaderValue(put.contentType), !put.contentType.isEmpty else { return .failure(.invalid("content type is not a printable header value")) }
        var headers: [(name: String, value: String)] = [("Content-Type", put.contentType)]
        var accept: Set<Int> = []
        switch put.condition {
        case .none: break
        case .ifNoneMatch:
            headers.append(("If-None-Match", "*"))
            accept = [412]
        case .ifMatch(let etag):
            guard !etag.isEmpty, isHeaderValue(etag) else { return .failure(.invalid("ETag is not a printable header value")) }
            headers.append(("If-Match", etag))
            accept = [412, 404]
        }
        for (name, value) in put.metadata {
            guard !name.isEmpty, name.utf8.allSatisfy({ ASCII.isLower($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "-") }) else {
                return .failure(.invalid("metadata name must be [a-z0-9-]"))
            }
            guard isHeaderValue(value) else { return .failure(.invalid("metadata value is not printable ASCII")) }
            headers.append(("x-amz-meta-" + name, value))
        }
        if !put.tags.isEmpty {
            let safe: (String) -> Bool = {
                !$0.isEmpty && $0.utf8.allSatisfy { ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }
            }
            guard put.tags.allSatisfy({ safe($0.0) && safe($0.1) }) else { return .failure(.invalid("tag keys and values must be [A-Za-z0-9._-]")) }
            headers.append(("x-amz-tagging", put.tags.map { $0.0 + "=" + $0.1 }.joined(separator: "&")))
        }
        return .success(OperationRequest(method: "PUT", path: path, headers: headers, body: put.body, accept: accept))
    }

    // MARK: DeleteObject

    /// Deletes the key; deleting a missing key succeeds (S3 answers 204 either way).
    @discardableResult
    public func delete(_ key: String, condition: S3DeleteCondition = .none, deadline: Deadline) throws(AWSError) -> S3DeleteOutcome {
        try PreparedCall.run([prepareDelete(key, condition: condition)], deadline: deadline)[0].get()
    }

    func prepareDelete(_ key: String, condition: S3DeleteCondition) -> PreparedCall<S3DeleteOutcome> {
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var accept: Set<Int> = [404]
        switch condition {
        case .none: break
        case .version(let id): query.append(("versionId", id))
        case .ifMatch(let etag):
            headers.append(("If-Match", etag))
            accept.insert(412)
        }
        let request = checkKey(key).flatMap { _ -> Result<OperationRequest, AWSError> in
            if case .version(let id) = condition, id.isEmpty || !S3Client.isHeaderValue(id) { return .failure(.invalid("version id is not printable")) }
            if case .ifMatch(let etag) = condition, etag.isEmpty || !S3Client.isHeaderValue(etag) { return .failure(.invalid("ETag is not a printable header value")) }
            return .success(OperationRequest(method: "DELETE", path: path(for: key), query: query, headers: headers, accept: accept))
        }
        return PreparedCall(transport: transport, request: request) { response throws(AWSError) -> S3DeleteOutcome in
            switch response.status {
            case 200, 204: return .deleted
            case 412: return .preconditionFailed
            case 404:
                // Nothing there (or, with If-Match, nothing to compare against): nothing to delete.
                let error = ErrorClassifier.describe(response)
                if error.code == nil || error.code == "NoSuchKey" || error.code == "NoSuchVersion" { return .deleted }
                throw error
            default: throw S3Client.unexpected(response)
            }
        }
    }

    // MARK: ListObjectsV2

    /// Every key under `prefix`, in S3's order, following continuation tokens for at most
    /// `maxListPages` pages (more is `.invalidRequest`: the caller asked for an unbounded listing).
    public func list(prefix: String, deadline: Deadline, pageSize: Int = 1000) throws(AWSError) -> [String] {
        if let problem = bucketProblem { throw .invalid(problem) }
        if let problem = ObjectKeyRule.prefixProblem(prefix) { throw .invalid("list prefix: " + problem) }
        var keys: [String] = []
        var token: String?
        for _ in 0..<max(1, maxListPages) {
            let page = try PreparedCall.run([prepareList(prefix: prefix, pageSize: pageSize, continuationToken: token)], deadline: deadline)[0].get()
            keys += page.keys
            guard page.isTruncated else { return keys }
            token = page.continuationToken
        }
        throw AWSError(kind: .invalidRequest, message: "listing has more than \(maxListPages) pages")
    }

    /// One page of ListObjectsV2 (at most `pageSize`, ≤ 1000, keys), for a batch.
    func prepareList(prefix: String, pageSize: Int = 1000, continuationToken: String? = nil) -> PreparedCall<S3Listing> {
        var query: [(name: String, value: String)] = [("list-type", "2"), ("encoding-type", "url"), ("max-keys", String(max(1, min(pageSize, 1000))))]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let listPath = pathPrefix.isEmpty ? "/" : pathPrefix + "/"
        let request: Result<OperationRequest, AWSError>
        if let problem = bucketProblem {
            request = .failure(.invalid(problem))
        } else if let problem = ObjectKeyRule.prefixProblem(prefix) {
            request = .failure(.invalid("list prefix: " + problem))
        } else {
            request = .success(OperationRequest(method: "GET", path: listPath, query: query))
        }
        return PreparedCall(transport: transport, request: request) { response throws(AWSError) -> S3Listing in
            guard response.status == 200, let root = XMLReader.parse(response.body), root.name == "ListBucketResult" else {
                throw AWSError(kind: .other, message: "ListObjectsV2 answer is not a ListBucketResult", requestID: response.header("x-amz-request-id"), status: response.status)
            }
            let urlEncoded = root["EncodingType"] == "url"
            var keys: [String] = []
            for item in root.children("Contents") {
                guard let raw = item["Key"], let key = urlEncoded ? SigV4.decode(raw) : raw else {
                    throw AWSError(kind: .other, message: "ListObjectsV2 answer has a malformed key")
                }
                keys.append(key)
            }
            guard root["IsTruncated"] == "true" else { return S3Listing(keys: keys, isTruncated: false) }
            guard let next = root["NextContinuationToken"], !next.isEmpty else {
                throw AWSError(kind: .other, message: "ListObjectsV2 answer is truncated without a continuation token")
            }
            return S3Listing(keys: keys, isTruncated: true, continuationToken: next)
        }
    }

    // MARK: Plumbing

    private func checkKey(_ key: String) -> Result<Void, AWSError> {
        if let problem = bucketProblem { return .failure(.invalid(problem)) }
        if let problem = ObjectKeyRule.problem(key) { return .failure(.invalid(problem)) }
        return .success(())
    }

    private func path(for key: String) -> String { pathPrefix + "/" + SigV4.encodePath(key) }

    /// Sends the valid requests together and interprets each answer; refused ones never go out.
    private func run<T>(_ requests: [Result<OperationRequest, AWSError>], deadline: Deadline,
                        interpret: @escaping (HTTPResponse) throws(AWSError) -> T) -> [Result<T, AWSError>] {
        PreparedCall.run(requests.map { PreparedCall(transport: transport, request: $0, interpret: interpret) }, deadline: deadline)
    }

    private static func missingKey(_ response: HTTPResponse) throws(AWSError) -> S3Object? {
        let error = ErrorClassifier.describe(response)
        if error.code == nil || error.code == "NoSuchKey" { return nil }
        throw error // NoSuchBucket and the like are configuration problems, not absence
    }

    private static func unexpected(_ response: HTTPResponse) -> AWSError {
        var error = ErrorClassifier.describe(response)
        if (200..<300).contains(response.status) || (300..<400).contains(response.status) { error.kind = .other }
        return error
    }

    private static func metadata(_ response: HTTPResponse) -> [(String, String)] {
        response.headers.compactMap { h in
            let lower = h.name.lowercased()
            return lower.hasPrefix("x-amz-meta-") ? (String(lower.dropFirst(11)), h.value) : nil
        }
    }

    static func isHeaderValue(_ s: String) -> Bool { s.utf8.allSatisfy(ASCII.isPrintable) }

    /// S3 bucket naming: 3–63 of `a-z 0-9 . -`, starting and ending with a letter or digit, no
    /// two periods in a row. Nil when the name is valid.
    public static func bucketProblem(_ bucket: String) -> String? {
        let b = Array(bucket.utf8)
        let dot = UInt8(ascii: "."), dash = UInt8(ascii: "-")
        guard (3...63).contains(b.count),
              b.allSatisfy({ ASCII.isLower($0) || ASCII.isDigit($0) || $0 == dash || $0 == dot }),
              let first = b.first, let last = b.last, first != dash, first != dot, last != dash, last != dot,
              !zip(b, b.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else { return "bucket name is not a valid S3 bucket name" }
        return nil
    }
}
