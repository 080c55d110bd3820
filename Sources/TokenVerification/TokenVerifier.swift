import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// Verifies Apple, Google and (opted in) Firebase ID tokens. Holds each provider's JWKS cache, so one verifier should
/// live as long as the process (warm invocations reuse the keys). Synchronous and not
/// thread-safe, like the `HTTPClient` it fetches keys with.
package final class TokenVerifier {
    let configuration: VerifierConfiguration
    private let http: HTTPClient
    let now: () -> Int64
    private var states: [KeySource: KeySetState] = [:]

    /// - Parameter now: wall-clock seconds; token times and cache ages are measured with it.
    package init(configuration: VerifierConfiguration, http: HTTPClient, now: @escaping () -> Int64 = Clock.nowSeconds)
    {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    /// Verifies `idToken` as `provider`'s ID token for this deployment and returns who it names.
    /// - Parameter nonce: the request's raw nonce; when given, the token's `nonce` must equal it
    ///   or its lowercase hex SHA-256.
    package func verify(
        _ idToken: String, provider: IdentityProvider, nonce: String?, deadline: Deadline
    ) throws(TokenError) -> VerifiedIdentity {
        let claims = try verifiedClaims(idToken, provider: provider, deadline: deadline)
        return try ClaimRules(provider, configuration).validate(claims, now: now(), nonce: nonce)
    }

    /// The claims of a JWS signed with one of `provider`'s keys (ID tokens, Apple's notifications),
    /// once the provider is enabled here and the signature verifies; not yet checked by any rule.
    func verifiedClaims(
        _ token: String, provider: IdentityProvider, deadline: Deadline
    ) throws(TokenError) -> JSONObject {
        guard configuration.settings(for: provider).isEnabled else {
            throw TokenError(
                kind: .unsupportedProvider,
                message: "\(provider.displayName) sign-in is not enabled for this deployment (it accepts: "
                    + "\(IdentityProvider.names(configuration.enabledProviders)))")
        }
        return try verifiedClaims(token, source: .provider(provider), deadline: deadline)
    }

    /// The claims of a JWS that verifies with a key of `source` (not yet checked by any rule).
    func verifiedClaims(_ token: String, source: KeySource, deadline: Deadline) throws(TokenError) -> JSONObject {
        let jws = try CompactJWS(token)
        let key = try key(jws.keyID, source: source, deadline: deadline)
        let verified = jws.signingInput.withUnsafeBytes { key.verifyPKCS1SHA256(signature: jws.signature, message: $0) }
        guard verified else { throw .invalid("signature does not verify with \(source.owner) key") }
        return try jws.claims()
    }

    /// Fetches the keys of every enabled provider whose cache is not fresh, all at once (one
    /// network round), so the first sign-in does not wait. Failures are remembered (and retried
    /// by the next verification), never thrown.
    package func prefetchKeys(deadline: Deadline) {
        let t = now()
        let due = configuration.enabledProviders.map(KeySource.provider).filter { !(states[$0]?.isFresh(t) ?? false) }
        refresh(due, deadline: deadline)
    }

    // MARK: - Diagnostics (tests, bench, logs)

    /// Number of successful JWKS fetches for `provider` since start.
    package func successfulFetchCount(_ provider: IdentityProvider) -> Int {
        states[.provider(provider)]?.successfulFetches ?? 0
    }

    /// What the last failed JWKS fetch for `provider` ran into, if the last attempt failed.
    package func lastFetchFailure(_ provider: IdentityProvider) -> String? {
        states[.provider(provider)]?.lastFailure
    }

    /// Key ids currently cached for `provider` (fresh or stale), sorted.
    package func cachedKeyIDs(_ provider: IdentityProvider) -> [String] {
        (states[.provider(provider)]?.keys.keys).map { $0.sorted() } ?? []
    }

    // MARK: - Keys

    private func key(_ kid: String, source: KeySource, deadline: Deadline) throws(TokenError) -> RSAPublicKey {
        let who = source.name
        var t = now()
        let state = states[source] ?? KeySetState()
        if state.isFresh(t) {
            if let key = state.keys[kid] { return key }
            if let reason = state.unusable[kid] {
                throw .invalid("\(who)'s key for this key id is unusable: \(reason)")
            }
            // Unknown kid with a fresh set: maybe a rotation. Re-fetch at most once a minute.
            if let last = state.lastAttemptAt, t - last < KeyCachePolicy.unknownKeyRefetchInterval {
                // If that last attempt failed, the set was never confirmed current: unavailable, not invalid.
                if state.lastFailure != nil {
                    throw TokenError(
                        kind: .keysUnavailable,
                        message: "\(who)'s signing keys are unavailable (the last refresh failed)")
                }
                throw .invalid("key id not in \(who)'s JWKS")
            }
        } else if state.isUsableStale(t), state.lastFailure != nil, let last = state.lastAttemptAt,
            t - last < KeyCachePolicy.failedFetchRetryInterval
        {
            // Expired, the last fetch failed moments ago: serve the stale keys without waiting on another attempt.
            if let key = state.keys[kid] { return key }
            throw TokenError(
                kind: .keysUnavailable, message: "\(who)'s signing keys are unavailable (the last refresh failed)")
        }

        let fetched = refresh([source], deadline: deadline).contains(source)
        t = now()
        let after = states[source] ?? KeySetState()
        if fetched {
            // A fresh, successful fetch: its answer is authoritative.
            if let key = after.keys[kid] { return key }
            if let reason = after.unusable[kid] {
                throw .invalid("\(who)'s key for this key id is unusable: \(reason)")
            }
            throw .invalid("key id not in \(who)'s JWKS")
        }
        // The fetch failed: a still-usable cache (fresh, or stale within the grace) still answers for keys it has.
        if after.isUsableStale(t), let key = after.keys[kid] { return key }
        if after.isFresh(t), let reason = after.unusable[kid] {
            throw .invalid("\(who)'s key for this key id is unusable: \(reason)")
        }
        throw TokenError(kind: .keysUnavailable, message: "\(who)'s signing keys are unavailable")
    }

    /// Fetches the JWKS of `providers` concurrently through the HTTP client's one retry loop
    /// (`HTTPClient.sendAll(_:retry:…)`): `KeyCachePolicy.maxAttempts` rounds, each request capped
    /// at `requestTimeoutMilliseconds` and the deadline, a connection error, timeout, 429 or 5xx
    /// tried again, nothing started with less than `minimumMillisecondsToFetch` left. Updates
    /// their cache state.
    /// - Returns: the providers whose fetch succeeded.
    @discardableResult
    private func refresh(_ providers: [KeySource], deadline: Deadline) -> Set<KeySource> {
        guard !providers.isEmpty else { return [] }
        let started = now()
        // Each provider's failure (nil when its keys were fetched), as `lastFailure` records it.
        let failures: [String?] = http.sendAll(
            providers.count, retry: KeyCachePolicy.retry,
            minimumAttemptMilliseconds: KeyCachePolicy.minimumMillisecondsToFetch, deadline: deadline,
            requests: { pending, attempt in
                // Only a request actually sent counts as an attempt (for the re-fetch rate limits).
                if attempt == 1 { for p in providers { states[p, default: KeySetState()].lastAttemptAt = started } }
                let timeout = deadline.requestTimeout(cap: KeyCachePolicy.requestTimeoutMilliseconds)
                return pending.map {
                    HTTPRequest(
                        url: configuration.jwksURL(for: providers[$0]),
                        headers: [("Accept", "application/json")],
                        timeoutMilliseconds: timeout, maxResponseBytes: KeyCachePolicy.maxResponseBytes)
                }
            },
            interpret: { i, answer, _ in cacheKeys(from: answer, for: providers[i]) },
            giveUp: { _, lastFailure, _, _ in lastFailure ?? "no time left before the deadline" })
        var succeeded = Set<KeySource>()
        for (p, failure) in zip(providers, failures) {
            states[p, default: KeySetState()].lastFailure = failure
            if failure == nil { succeeded.insert(p) }
        }
        return succeeded
    }

    /// Reads one JWKS answer into `provider`'s cache: nil when the keys were stored, else what
    /// went wrong, to be retried (connection error, timeout, 429, 5xx) or not.
    private func cacheKeys(
        from answer: Result<HTTPResponse, HTTPError>, for provider: KeySource
    ) -> RetryVerdict<String?, String> {
        let response: HTTPResponse
        switch answer {
        case .failure(let error) where error.kind == .responseTooLarge:
            return .final("JWKS response too large")  // cut off while arriving
        case .failure(let error):
            let failure = "transfer failed (\(error.kind))"
            return error.isRetryable ? .retry(failure) : .final(failure)
        case .success(let r): response = r
        }
        if response.status == 429 || (500...599).contains(response.status) { return .retry("HTTP \(response.status)") }
        guard response.status == 200 else { return .final("HTTP \(response.status)") }
        guard response.body.count <= KeyCachePolicy.maxResponseBytes else { return .final("JWKS response too large") }
        guard let set = ParsedKeySet.parse(response.body) else { return .final("response is not a JWKS") }
        guard !set.keys.isEmpty else { return .final("JWKS has no usable RS256 key") }
        let fetchedAt = now()
        var state = states[provider, default: KeySetState()]
        state.keys = set.keys
        state.unusable = set.unusable
        state.expiresAt = fetchedAt + freshnessLifetime(response)
        state.successfulFetches += 1
        states[provider] = state
        return .final(nil)
    }
}
