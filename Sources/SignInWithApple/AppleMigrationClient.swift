import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// Sign in with Apple's user migration for an app transfer (TN3159; contract v4): a team's
/// client-credentials access token (`POST /auth/token`, `grant_type=client_credentials`,
/// `scope=user.migration`, the ES256 `client_secret` of `AppleClientSecret`), reused within its
/// hour and renewed before it ends (or when Apple answers `invalid_grant`), and
/// `POST /auth/usermigrationinfo` with it as the bearer: the sending team asks for each `sub`'s
/// `transfer_sub` (`sub`, `target`), the recipient team for each `transfer_sub`'s new `sub` and
/// email. A batch goes out at once, paced by `AppleMigrationPacer`; 429 (its `Retry-After`
/// honoured) and 5xx go again after a backoff, within `maxAttempts`. No token, secret or
/// identifier reaches an error. Single-threaded, like the `HTTPClient` it shares.
package final class AppleMigrationClient {
    package let settings: AppleRevocationSettings
    private let key: P256PrivateKey
    private let http: HTTPClient
    /// Milliseconds since the epoch (tests move it).
    private let now: () -> Int64
    private let sleep: (Int) -> Void
    package var pacer: AppleMigrationPacer
    private var token: (value: String, expiresAtMs: Int64)?
    /// Requests sent to Apple, token requests and retries included.
    package private(set) var requests = 0
    /// 429 answers seen.
    package private(set) var throttled = 0

    /// Attempts per user before Apple counts as unavailable for this run.
    package var maxAttempts = 8
    static let requestTimeoutMilliseconds = 15_000
    static let maxResponseBytes = 64 * 1024
    /// A token is renewed this long before Apple says it ends.
    static let renewBeforeMs: Int64 = 300_000
    /// Backoff after a 5xx or a transport failure: full jitter up to this, doubling from 500 ms.
    static let maxBackoffMs = 30_000
    /// A `Retry-After` longer than this is not waited for in one go (the attempts run out first).
    static let maxRetryAfterMs: Int64 = 120_000

    package init(
        settings: AppleRevocationSettings, key: P256PrivateKey, http: HTTPClient, requestsPerSecond: Double,
        now: @escaping () -> Int64 = Clock.nowMilliseconds,
        sleep: @escaping (Int) -> Void = { Clock.sleep(milliseconds: $0) }
    ) {
        self.settings = settings
        self.key = key
        self.http = http
        self.now = now
        self.sleep = sleep
        pacer = AppleMigrationPacer(requestsPerSecond: requestsPerSecond)
    }

    /// The sending team's side: each `sub`'s `transfer_sub` for `target`.
    package func transferSubs(
        _ subs: [String], target: String, deadline: Deadline
    ) -> [AppleMigrationAnswer<String>] {
        send(subs.map { [("sub", $0), ("target", target)] }, deadline: deadline) { object in
            object["transfer_sub"]?.stringValue
        }
    }

    /// The recipient team's side: each `transfer_sub`'s new `sub`, email and `is_private_email`.
    package func exchange(
        _ transferSubs: [String], deadline: Deadline
    ) -> [AppleMigrationAnswer<AppleMigratedUser>] {
        send(transferSubs.map { [("transfer_sub", $0)] }, deadline: deadline) { object in
            guard let sub = object["sub"]?.stringValue else { return nil }
            let privateEmail: Bool? =
                switch object["is_private_email"] {
                case .bool(let b)?: b
                case .string("true")?: true
                case .string("false")?: false
                default: nil
                }
            return AppleMigratedUser(sub: sub, email: object["email"]?.stringValue, isPrivateEmail: privateEmail)
        }
    }

    /// One batch of `/auth/usermigrationinfo` requests through the retry loop.
    private func send<Value>(
        _ forms: [[(name: String, value: String)]], deadline: Deadline, read: (JSONObject) -> Value?
    ) -> [AppleMigrationAnswer<Value>] {
        var answers = [AppleMigrationAnswer<Value>?](repeating: nil, count: forms.count)
        var attempts = [Int](repeating: 0, count: forms.count)
        var pending = Array(forms.indices)
        var renewed = false
        while !pending.isEmpty {
            let wait = pacer.wait(for: pending.count, nowMs: now())
            guard deadline.remainingMilliseconds - wait > 1_000 else {
                for i in pending { answers[i] = .unavailable("the time given ran out") }
                break
            }
            sleep(Int(wait))
            let bearer: String
            switch accessToken(deadline: deadline) {
            case .failure(let error):
                for i in pending { answers[i] = .unavailable(error.description) }
                return answers.map { $0! }
            case .success(let value): bearer = value
            }
            let secret = AppleClientSecret.make(settings: settings, key: key, now: now() / 1000)
            let requests = pending.map { i in
                HTTPRequest(
                    method: "POST", url: settings.authURL + "/auth/usermigrationinfo",
                    headers: [
                        ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
                        ("Authorization", "Bearer " + bearer),
                    ],
                    body: FormEncoding.body(
                        forms[i] + [("client_id", settings.clientID), ("client_secret", secret)]),
                    timeoutMilliseconds: deadline.requestTimeout(cap: Self.requestTimeoutMilliseconds),
                    maxResponseBytes: Self.maxResponseBytes)
            }
            self.requests += requests.count
            let results = http.sendAll(requests)
            var again: [Int] = []
            var delayMs: Int64 = 0
            var sawThrottle = false
            var renewToken = false
            for (i, result) in zip(pending, results) {
                attempts[i] += 1
                switch AppleMigrationVerdict(result, read: read) {
                case .answer(let answer): answers[i] = answer
                case .tokenRefused where !renewed:
                    renewToken = true
                    again.append(i)
                case .tokenRefused:
                    answers[i] = .unavailable("Apple refused the access token again (invalid_grant)")
                case .throttled(let retryAfterMs):
                    sawThrottle = true
                    delayMs = max(delayMs, min(retryAfterMs ?? 1_000, Self.maxRetryAfterMs))
                    again.append(i)
                case .transient:
                    again.append(i)
                }
            }
            if renewToken {
                token = nil  // a new one on the next turn, once per batch
                renewed = true
            }
            if sawThrottle {
                throttled += 1
                pacer.throttled(nowMs: now(), retryAfterMs: delayMs)
            } else if again.isEmpty {
                pacer.clean()
            }
            pending = []
            for i in again {
                if attempts[i] >= maxAttempts {
                    answers[i] = .unavailable("Apple kept answering 429 or 5xx (\(attempts[i]) attempts)")
                } else {
                    pending.append(i)
                }
            }
            if !pending.isEmpty && !sawThrottle {
                let round = pending.map { attempts[$0] }.max() ?? 1
                let ceiling = min(Self.maxBackoffMs, 500 << min(round - 1, 10))
                sleep(Int(SecureRandom.uniform(UInt64(ceiling) + 1)))
            }
        }
        return answers.map { $0! }
    }

    /// The team's access token, from the cache while more than `renewBeforeMs` of its hour is
    /// left, else a new one from `/auth/token`.
    private func accessToken(deadline: Deadline) -> Result<String, AppleTokenError> {
        if let token, token.expiresAtMs - now() > Self.renewBeforeMs { return .success(token.value) }
        let sender = RetryingSender(
            http: http, retry: RetryPolicy(maxAttempts: 4, baseDelayMilliseconds: 500, maxDelayMilliseconds: 5_000),
            requestTimeoutCapMilliseconds: Self.requestTimeoutMilliseconds)
        let outcome = sender.send(
            deadline: deadline,
            request: { timeout in
                self.requests += 1
                let secret = AppleClientSecret.make(settings: settings, key: key, now: now() / 1000)
                return HTTPRequest(
                    method: "POST", url: settings.authURL + "/auth/token",
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                    body: FormEncoding.body([
                        ("grant_type", "client_credentials"), ("scope", "user.migration"),
                        ("client_id", settings.clientID), ("client_secret", secret),
                    ]),
                    timeoutMilliseconds: timeout, maxResponseBytes: Self.maxResponseBytes)
            },
            interpret: AppleTokenClient.verdict, giveUp: .failure(.unavailable))
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let response):
            guard let answer = try? JSONParser.parse(response.body), let value = answer["access_token"]?.stringValue,
                (1...4096).contains(value.utf8.count), value.utf8.allSatisfy(ASCII.isVisible),
                answer["token_type"]?.stringValue.map({ $0.lowercasedASCII() == "bearer" }) ?? true
            else { return .failure(.malformedAnswer) }
            let lifetime = answer["expires_in"]?.int64Value ?? 3600
            token = (value, now() + max(60, min(lifetime, 86_400)) * 1000)
            return .success(value)
        }
    }
}
