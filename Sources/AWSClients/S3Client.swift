import CurlHTTP
import PlatformSupport
import SigV4

/// S3 object operations on one bucket, signed with the function's credentials. Synchronous; one
/// per process alongside the one `HTTPClient`. See `SignedTransport` for retries and deadlines.
package final class S3Client {
    let bucket: String
    private let endpoint: AWSEndpoint
    let transport: SignedTransport
    let bucketProblem: String?
    /// Prefix for every request path: the endpoint's base path, plus `/bucket` when path-style.
    let pathPrefix: String
    /// Pages `list` follows at most (1000 keys each).
    package var maxListPages = 100

    /// Default upper bound for one attempt.
    static let defaultRequestTimeoutMilliseconds = 5_000

    package init(http: HTTPClient, config: AWSConfig, bucket: String, retry: RetryPolicy = .init()) {
        self.bucket = bucket
        var endpoint = config.s3Endpoint
        let problem = S3Client.bucketProblem(bucket)
        // Virtual-hosted addressing needs a DNS label; a bucket with dots would also break the
        // TLS wildcard, so such buckets (and every configured endpoint) go path-style.
        if !endpoint.pathStyle && bucket.utf8.contains(UInt8(ascii: ".")) { endpoint.pathStyle = true }
        self.endpoint = endpoint
        self.bucketProblem = problem
        let host = endpoint.pathStyle ? endpoint.host : bucket.lowercasedASCII() + "." + endpoint.host
        var hostEndpoint = endpoint
        hostEndpoint.host = host
        pathPrefix = endpoint.basePath + (endpoint.pathStyle ? "/" + SigV4.encodePath(bucket) : "")
        transport = SignedTransport(
            http: http, credentials: config.credentials, service: "s3", region: config.region,
            scheme: endpoint.scheme, hostHeader: hostEndpoint.hostHeader, authority: hostEndpoint.authority,
            retry: retry, requestTimeoutCapMilliseconds: S3Client.defaultRequestTimeoutMilliseconds)
    }

    /// Upper bound for one attempt (the deadline usually binds first).
    package var requestTimeoutMilliseconds: Int {
        get { transport.requestTimeoutCapMilliseconds }
        set { transport.requestTimeoutCapMilliseconds = newValue }
    }

    /// Requests sent by this client so far, retries included.
    package var attemptsSent: Int { transport.attemptsSent }

    // MARK: GetObject

    /// The object, or nil when there is no such key.
    package func get(_ key: String, deadline: Deadline) throws(AWSError) -> S3Object? {
        try getAll([key], deadline: deadline)[0].get()
    }

    /// Several GetObjects at once (overlapped on the wire), results in order.
    package func getAll(_ keys: [String], deadline: Deadline) -> [Result<S3Object?, AWSError>] {
        PreparedCall.run(keys.map(prepareGet), deadline: deadline)
    }

    func prepareGet(_ key: String) -> PreparedCall<S3Object?> {
        PreparedCall(
            transport: transport,
            request: checkKey(key).map { OperationRequest(method: "GET", path: path(for: key), accept: [404]) }
        ) {
            response throws(AWSError) -> S3Object? in
            if response.status == 404 { return try S3Client.missingKey(response) }
            guard response.status == 200 else { throw S3Client.unexpected(response) }
            let version = response.header("x-amz-version-id").flatMap { $0.isEmpty || $0 == "null" ? nil : $0 }
            return S3Object(
                body: response.body, etag: response.header("ETag") ?? "", contentType: response.header("Content-Type"),
                metadata: S3Client.metadata(response), versionID: version)
        }
    }

    // MARK: HeadObject

    /// ETag, content type and size, or nil when there is no such key.
    package func head(
        _ key: String, deadline: Deadline
    ) throws(AWSError) -> (etag: String, contentType: String?, size: Int)? {
        try run(
            [checkKey(key).map { OperationRequest(method: "HEAD", path: path(for: key), accept: [404]) }],
            deadline: deadline
        ) {
            response throws(AWSError) -> (etag: String, contentType: String?, size: Int)? in
            // A HEAD answer has no body, so a missing bucket cannot be told from a missing key.
            if response.status == 404 { return nil }
            guard response.status == 200 else { throw S3Client.unexpected(response) }
            return (
                response.header("ETag") ?? "", response.header("Content-Type"),
                Int(response.header("Content-Length") ?? "") ?? 0
            )
        }[0].get()
    }

    // MARK: PutObject

    package func put(_ put: S3Put, deadline: Deadline) throws(AWSError) -> S3PutOutcome {
        try putAll([put], deadline: deadline)[0].get()
    }

    /// Several PutObjects at once (overlapped on the wire), results in order.
    package func putAll(_ puts: [S3Put], deadline: Deadline) -> [Result<S3PutOutcome, AWSError>] {
        PreparedCall.run(puts.map(preparePut), deadline: deadline)
    }

    func preparePut(_ put: S3Put) -> PreparedCall<S3PutOutcome> {
        PreparedCall(
            transport: transport,
            request: checkKey(put.key).flatMap { _ in S3Client.putRequest(put, path: path(for: put.key)) }
        ) {
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

    // MARK: DeleteObject

    /// Deletes the key; deleting a missing key succeeds (S3 answers 204 either way).
    @discardableResult
    package func delete(
        _ key: String, condition: S3DeleteCondition = .none, deadline: Deadline
    ) throws(AWSError) -> S3DeleteOutcome {
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
            if case .version(let id) = condition, id.isEmpty || !S3Client.isHeaderValue(id) {
                return .failure(.invalid("version id is not printable"))
            }
            if case .ifMatch(let etag) = condition, etag.isEmpty || !S3Client.isHeaderValue(etag) {
                return .failure(.invalid("ETag is not a printable header value"))
            }
            return .success(
                OperationRequest(method: "DELETE", path: path(for: key), query: query, headers: headers, accept: accept)
            )
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
    package func list(prefix: String, deadline: Deadline, pageSize: Int = 1000) throws(AWSError) -> [String] {
        if let problem = bucketProblem { throw .invalid(problem) }
        if let problem = ObjectKeyRule.prefixProblem(prefix) { throw .invalid("list prefix: " + problem) }
        var keys: [String] = []
        var token: String?
        for _ in 0..<max(1, maxListPages) {
            let page = try PreparedCall.run(
                [prepareList(prefix: prefix, pageSize: pageSize, continuationToken: token)], deadline: deadline)[0]
                .get()
            keys += page.keys
            guard page.isTruncated else { return keys }
            token = page.continuationToken
        }
        throw AWSError(kind: .invalidRequest, message: "listing has more than \(maxListPages) pages")
    }

    /// One page of ListObjectsV2 (at most `pageSize`, ≤ 1000, keys), for a batch.
    func prepareList(
        prefix: String, pageSize: Int = 1000, continuationToken: String? = nil, startAfter: String? = nil,
        delimiter: String? = nil
    ) -> PreparedCall<S3Listing> {
        var query: [(name: String, value: String)] = [
            ("list-type", "2"), ("encoding-type", "url"), ("max-keys", String(max(1, min(pageSize, 1000)))),
        ]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        if let startAfter { query.append(("start-after", startAfter)) }
        let listPath = pathPrefix.isEmpty ? "/" : pathPrefix + "/"
        let request: Result<OperationRequest, AWSError>
        if let problem = bucketProblem {
            request = .failure(.invalid(problem))
        } else if let problem = ObjectKeyRule.prefixProblem(prefix) {
            request = .failure(.invalid("list prefix: " + problem))
        } else if let startAfter, let problem = ObjectKeyRule.prefixProblem(startAfter) {
            request = .failure(.invalid("list start: " + problem))
        } else if let delimiter, delimiter.isEmpty || delimiter.utf8.count > 16 || !S3Client.isHeaderValue(delimiter) {
            request = .failure(.invalid("list delimiter is not 1 to 16 printable characters"))
        } else if let continuationToken, continuationToken.isEmpty || !S3Client.isHeaderValue(continuationToken) {
            request = .failure(.invalid("continuation token is not printable"))
        } else {
            request = .success(OperationRequest(method: "GET", path: listPath, query: query))
        }
        return PreparedCall(transport: transport, request: request, interpret: S3Client.listing)
    }

    // MARK: Plumbing

    private func checkKey(_ key: String) -> Result<Void, AWSError> {
        if let problem = bucketProblem { return .failure(.invalid(problem)) }
        if let problem = ObjectKeyRule.problem(key) { return .failure(.invalid(problem)) }
        return .success(())
    }

    private func path(for key: String) -> String { pathPrefix + "/" + SigV4.encodePath(key) }

    /// Sends the valid requests together and interprets each answer; refused ones never go out.
    private func run<T>(
        _ requests: [Result<OperationRequest, AWSError>], deadline: Deadline,
        interpret: @escaping (HTTPResponse) throws(AWSError) -> T
    ) -> [Result<T, AWSError>] {
        PreparedCall.run(
            requests.map { PreparedCall(transport: transport, request: $0, interpret: interpret) }, deadline: deadline)
    }

    private static func missingKey(_ response: HTTPResponse) throws(AWSError) -> S3Object? {
        let error = ErrorClassifier.describe(response)
        if error.code == nil || error.code == "NoSuchKey" { return nil }
        throw error  // NoSuchBucket and the like are configuration problems, not absence
    }

    private static func unexpected(_ response: HTTPResponse) -> AWSError {
        var error = ErrorClassifier.describe(response)
        if (200..<300).contains(response.status) || (300..<400).contains(response.status) { error.kind = .other }
        return error
    }

    private static func metadata(_ response: HTTPResponse) -> [(String, String)] {
        // Read in place: only a metadata header's name is copied (and lowercased).
        response.headers(namePrefix: "x-amz-meta-").map { ($0.suffix.lowercasedASCII(), $0.value) }
    }
}
