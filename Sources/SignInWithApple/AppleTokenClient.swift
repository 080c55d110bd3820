import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// Apple's token endpoints for account deletion: `exchange` trades the authorization code of a
/// fresh Sign in with Apple for tokens (`POST /auth/token`), `revoke` ends them
/// (`POST /auth/revoke`). Each request carries a new `client_secret` (`AppleClientSecret`) and
/// goes through the project's one retry loop (`HTTPClient.sendAll(_:retry:…)`): transport
/// failures, 429 and 5xx (but 501) go again after a jittered backoff, within `retry`'s attempts
/// and the deadline. No token, code or secret reaches an error. Single-threaded, like the
/// `HTTPClient` it shares.
package final class AppleTokenClient {
    typealias Outcome = Result<HTTPResponse, AppleTokenError>

    package let settings: AppleRevocationSettings
    private let key: P256PrivateKey
    /// Seconds since the epoch, for `client_secret`'s `iat` (tests move it).
    private let now: () -> Int64
    /// One request at a time through the retry loop, at most `requestTimeoutCapMilliseconds` an
    /// attempt.
    package var sender: RetryingSender

    /// Upper bound for one attempt; the deadline usually binds first.
    static let requestTimeoutCapMilliseconds = 5_000
    static let maxResponseBytes = 64 * 1024
    /// Apple's codes are about 70 characters; anything near this is not one.
    static let maxCodeBytes = 1024
    /// The id_token bound of the contract; Apple's refresh and access tokens are far shorter.
    static let maxTokenBytes = 16 * 1024

    /// With the key as PKCS#8 PEM: `APPLE_PRIVATE_KEY`'s value, or the SSM parameter's that
    /// `APPLE_PRIVATE_KEY_PARAMETER` names. A PEM that is not a P-256 key is a configuration
    /// error naming that variable (never the PEM).
    package convenience init(
        settings: AppleRevocationSettings, privateKeyPEM: String, http: HTTPClient, retry: RetryPolicy = .init()
    ) throws(ConfigurationError) {
        let key = try settings.keySource.p256Key(pem: privateKeyPEM) { error in
            let subject: String
            switch settings.keySource {
            case .pem: subject = "does not hold"
            case .parameter: subject = "names a parameter that does not hold"
            }
            return subject + " a usable Sign in with Apple key: \(error)"
        }
        self.init(settings: settings, key: key, http: http, retry: retry)
    }

    package init(
        settings: AppleRevocationSettings, key: P256PrivateKey, http: HTTPClient, retry: RetryPolicy = .init(),
        now: @escaping () -> Int64 = Clock.nowSeconds
    ) {
        self.settings = settings
        self.key = key
        self.now = now
        sender = RetryingSender(
            http: http, retry: retry, requestTimeoutCapMilliseconds: Self.requestTimeoutCapMilliseconds)
    }

    /// Validates `code` (an authorization code from the app) at `/auth/token`. The grant's
    /// id_token is not checked here: the caller verifies it with its TokenVerifier and compares
    /// its `sub` with the account's Apple identity before revoking anything.
    package func exchange(code: String, deadline: Deadline) throws(AppleTokenError) -> AppleTokenGrant {
        guard (1...Self.maxCodeBytes).contains(code.utf8.count), code.utf8.allSatisfy(ASCII.isPrintable) else {
            throw .rejected("invalid_request")
        }
        let response = try post(
            "/auth/token", [("code", code), ("grant_type", "authorization_code")], deadline: deadline
        ).get()
        return try Self.grant(from: response.body)
    }

    /// Revokes `token` at `/auth/revoke`. Apple answers 200 also for a token it does not know
    /// (RFC 7009 §2.2), so success means "not usable any more", not "was valid".
    package func revoke(_ token: String, hint: AppleTokenKind, deadline: Deadline) throws(AppleTokenError) {
        guard (1...Self.maxTokenBytes).contains(token.utf8.count), token.utf8.allSatisfy(ASCII.isVisible) else {
            throw .rejected("invalid_request")
        }
        _ = try post("/auth/revoke", [("token", token), ("token_type_hint", hint.rawValue)], deadline: deadline).get()
    }

    /// Revokes the grant's refresh token, or its access token when Apple sent no refresh token:
    /// either ends the user's authorization of the app.
    package func revoke(_ grant: AppleTokenGrant, deadline: Deadline) throws(AppleTokenError) {
        let (token, kind) = grant.revocable
        try revoke(token, hint: kind, deadline: deadline)
    }

    /// One form POST through the retry loop; the secret is made per attempt (fresh `iat`).
    private func post(_ path: String, _ fields: [(name: String, value: String)], deadline: Deadline) -> Outcome {
        let url = settings.authURL + path
        return sender.send(
            deadline: deadline,
            request: { timeout in
                let secret = AppleClientSecret.make(settings: settings, key: key, now: now())
                let body = FormEncoding.body([("client_id", settings.clientID), ("client_secret", secret)] + fields)
                return HTTPRequest(
                    method: "POST", url: url,
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                    body: body, timeoutMilliseconds: timeout, maxResponseBytes: Self.maxResponseBytes)
            },
            interpret: Self.verdict, giveUp: .failure(.unavailable))
    }

    /// What one answer means: success (2xx), a transient failure, or Apple's refusal.
    static func verdict(_ answer: Result<HTTPResponse, HTTPError>) -> RetryVerdict<Outcome, AppleTokenError> {
        switch answer {
        case .failure(let error):
            return .transportFailure(error, unavailable: .unavailable, malformed: .malformedAnswer)
        case .success(let response):
            switch response.status {
            case 200...299: return .final(.success(response))
            case 501: return .final(.failure(.unavailable))  // Not Implemented will not change on a retry
            case 429, 500...599: return .retry(.unavailable)
            case 400...499:
                let code = (try? JSONParser.parse(response.body))?["error"]?.stringValue
                return .final(.failure(AppleTokenError.rejection(code)))
            default: return .final(.failure(.malformedAnswer))
            }
        }
    }

    /// `{"access_token", "token_type", "expires_in", "refresh_token", "id_token"}`: the id_token
    /// is required, and a refresh or an access token (something to revoke); other members are
    /// ignored. A token of another type or shape makes the answer malformed.
    static func grant(from body: [UInt8]) throws(AppleTokenError) -> AppleTokenGrant {
        guard let answer = try? JSONParser.parse(body), let object = answer.objectValue else { throw .malformedAnswer }
        func token(_ name: String) throws(AppleTokenError) -> String? {
            guard let value = object[name], !value.isNull else { return nil }
            guard let text = value.stringValue, (1...maxTokenBytes).contains(text.utf8.count),
                text.utf8.allSatisfy(ASCII.isVisible)
            else { throw .malformedAnswer }
            return text
        }
        guard let idToken = try token("id_token") else { throw .malformedAnswer }
        let refreshToken = try token("refresh_token")
        let accessToken = try token("access_token")
        guard refreshToken != nil || accessToken != nil else { throw .malformedAnswer }
        return AppleTokenGrant(idToken: idToken, refreshToken: refreshToken, accessToken: accessToken)
    }
}
