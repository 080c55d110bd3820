import CurlHTTP
import PlatformSupport
import SigV4

/// One request to build, sign and send; rebuilt (re-signed, fresh date) on every attempt.
struct OperationRequest {
    var method: String
    /// The path as sent, percent-encoded (including any base path and, path-style, the bucket).
    var path: String
    var query: [(name: String, value: String)] = []
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Statuses the operation interprets itself instead of as errors.
    var accept: Set<Int> = []
}

/// Signs requests for one service at one endpoint host and runs them through the shared
/// `HTTPClient`'s bounded retry loop (`HTTPClient.sendAll(_:retry:…)`): exponential backoff with
/// full jitter, each attempt re-signed with its timeout taken from the deadline (capped), no
/// attempt once the deadline is too close for one to be useful. A batch runs overlapped (curl
/// multi); the requests that need a retry go again together, after one backoff. Single-threaded,
/// like the HTTP client.
final class SignedTransport {
    let http: HTTPClient
    let credentials: SigningCredentials
    let retry: RetryPolicy
    let scheme: String
    let hostHeader: String
    let authority: String
    private var signer: SigV4Signer
    /// Upper bound for one attempt; the deadline usually binds first.
    var requestTimeoutCapMilliseconds: Int
    /// No new attempt starts with less than this left before the deadline.
    var minimumAttemptMilliseconds: Int64 = 100
    /// Attempts sent since creation (tests and the bench read it).
    fileprivate(set) var attemptsSent = 0

    init(
        http: HTTPClient, credentials: SigningCredentials, service: String, region: String, scheme: String,
        hostHeader: String, authority: String, retry: RetryPolicy, requestTimeoutCapMilliseconds: Int
    ) {
        self.http = http
        self.credentials = credentials
        self.retry = retry
        self.scheme = scheme
        self.hostHeader = hostHeader
        self.authority = authority
        self.signer = SigV4Signer(service: service, region: region)
        self.requestTimeoutCapMilliseconds = requestTimeoutCapMilliseconds
    }

    func send(_ request: OperationRequest, deadline: Deadline) -> Result<HTTPResponse, AWSError> {
        sendAll([request], deadline: deadline)[0]
    }

    func sendAll(_ requests: [OperationRequest], deadline: Deadline) -> [Result<HTTPResponse, AWSError>] {
        SignedTransport.sendAll(requests.map { (self, $0) }, deadline: deadline)
    }

    /// Sends requests that may belong to different services (S3 and STS) as one overlapped batch
    /// on the shared HTTPClient: each is signed by its own transport, and all share one retry loop
    /// (`HTTPClient.sendAll(_:retry:…)`, with the first transport's policy), so a mixed batch costs
    /// one network round, not one per service.
    static func sendAll(
        _ items: [(transport: SignedTransport, request: OperationRequest)], deadline: Deadline
    ) -> [Result<HTTPResponse, AWSError>] {
        guard let lead = items.first?.transport else { return [] }
        return lead.http.sendAll(
            items.count, retry: lead.retry, minimumAttemptMilliseconds: lead.minimumAttemptMilliseconds,
            deadline: deadline,
            requests: { pending, _ in
                let now = Clock.nowMilliseconds()
                return pending.map { i in
                    let (transport, request) = items[i]
                    transport.attemptsSent += 1
                    return transport.build(
                        request, dateMilliseconds: now,
                        timeout: deadline.requestTimeout(cap: transport.requestTimeoutCapMilliseconds))
                }
            },
            interpret: { i, answer, attempt -> RetryVerdict<Result<HTTPResponse, AWSError>, AWSError> in
                switch ErrorClassifier.classify(answer, accept: items[i].request.accept) {
                case .success(let response): return .final(.success(response))
                case .failure(var error):
                    error.attempts = attempt
                    return .final(.failure(error))
                case .retry(let error): return .retry(error)
                }
            },
            giveUp: { _, lastError, attempts, deadlineReached in
                .failure(exhausted(lastError, attempts: attempts, deadlineReached: deadlineReached))
            })
    }

    private static func exhausted(_ last: AWSError?, attempts: Int, deadlineReached: Bool) -> AWSError {
        guard var error = last else {
            return AWSError(
                kind: .unavailable, message: "deadline reached before the request could be sent", attempts: attempts)
        }
        error.attempts = attempts
        if deadlineReached { error.message += " (no time left for another attempt)" }
        return error
    }

    fileprivate func build(_ r: OperationRequest, dateMilliseconds: Int64, timeout: Int) -> HTTPRequest {
        let signable = SignableRequest(
            method: r.method, host: hostHeader, path: r.path, query: r.query, headers: r.headers, body: r.body)
        let signed = signer.sign(signable, credentials: credentials, dateMilliseconds: dateMilliseconds)
        var url = scheme + "://" + authority + r.path
        if !signed.queryString.isEmpty { url += "?" + signed.queryString }
        return HTTPRequest(
            method: r.method, url: url, headers: signed.headers, body: r.body, timeoutMilliseconds: timeout)
    }
}
