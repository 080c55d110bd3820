import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// Verifies Apple and Google ID tokens. Holds each provider's JWKS cache, so one verifier should
/// live as long as the process (warm invocations reuse the keys). Synchronous and not
/// thread-safe, like the `HTTPClient` it fetches keys with.
public final class TokenVerifier {
    public let configuration: VerifierConfiguration
    private let http: HTTPClient
    private let now: () -> Int64
    private var states: [IdentityProvider: KeySetState] = [:]

    /// - Parameter now: wall-clock seconds; token times and cache ages are measured with it.
    public init(configuration: VerifierConfiguration, http: HTTPClient, now: @escaping () -> Int64 = Clock.nowSeconds) {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    /// Verifies `idToken` as `provider`'s ID token for this deployment and returns who it names.
    /// - Parameter nonce: the request's raw nonce; when given, the token's `nonce` must equal it
    ///   or its lowercase hex SHA-256.
    public func verify(_ idToken: String, provider: IdentityProvider, nonce: String?, deadline: Deadline) throws(TokenError) -> VerifiedIdentity {
        let settings = configuration.settings(for: provider)
        guard settings.isEnabled else {
            throw TokenError(kind: .unsupportedProvider, message: "\(provider.displayName) sign-in is not enabled for this deployment")
        }
        let jws = try CompactJWS(idToken)
        let key = try key(jws.keyID, provider: provider, deadline: deadline)
        let verified = jws.signingInput.withUnsafeBytes { key.verifyPKCS1SHA256(signature: jws.signature, message: $0) }
        guard verified else { throw .invalid("signature does not verify with \(provider.displayName)'s key") }
        let claims = try jws.claims()
        return try ClaimRules(provider: provider, audiences: settings.audiences, leeway: configuration.leewaySeconds)
            .validate(claims, now: now(), nonce: nonce)
    }

    /// Fetches the keys of every enabled provider whose cache is not fresh, all at once (one
    /// network round), so the first sign-in does not wait. Failures are remembered (and retried
    /// by the next verification), never thrown.
    public func prefetchKeys(deadline: Deadline) {
        let t = now()
        let due = IdentityProvider.allCases.filter { configuration.settings(for: $0).isEnabled && !(states[$0]?.isFresh(t) ?? false) }
        refresh(due, deadline: deadline)
    }

    // MARK: - Diagnostics (tests, bench, logs)

    /// Number of successful JWKS fetches for `provider` since start.
    public func successfulFetchCount(_ provider: IdentityProvider) -> Int { states[provider]?.successfulFetches ?? 0 }

    /// What the last failed JWKS fetch for `provider` ran into, if the last attempt failed.
    public func lastFetchFailure(_ provider: IdentityProvider) -> String? {
        states[provider]?.lastFailure
    }

    /// Key ids currently cached for `provider` (fresh or stale), sorted.
    public func cachedKeyIDs(_ provider: IdentityProvider) -> [String] { (states[provider]?.keys.keys).map { $0.sorted() } ?? [] }

    // MARK: - Keys

    private func key(_ kid: String, provider: IdentityProvider, deadline: Deadline) throws(TokenError) -> RSAPublicKey {
        let who = provider.displayName
        var t = now()
        let state = states[provider] ?? KeySetState()
        if state.isFresh(t) {
            if let key = state.keys[kid] { return key }
            if let reason = state.unusable[kid] { throw .invalid("\(who)'s key for this key id is unusable: \(reason)") }
            // Unknown kid with a fresh set: maybe a rotation. Re-fetch at most once a minute.
            if let last = state.lastAttemptAt, t - last < KeyCachePolicy.unknownKeyRefetchInterval {
                // If that last attempt failed, the set was never confirmed current: unavailable, not invalid.
                if state.lastFailure != nil { throw TokenError(kind: .keysUnavailable, message: "\(who)'s signing keys are unavailable (the last refresh failed)") }
                throw .invalid("key id not in \(who)'s JWKS")
            }
        } else if state.isUsableStale(t), state.lastFailure != nil, let last = state.lastAttemptAt,
                  t - last < KeyCachePolicy.failedFetchRetryInterval
        {
            // Expired, the last fetch failed moments ago: serve the stale keys without waiting on another attempt.
            if let key = state.keys[kid] { return key }
            throw TokenError(kind: .keysUnavailable, message: "\(who)'s signing keys are unavailable (the last refresh failed)")
        }

        let fetched = refresh([provider], deadline: deadline).contains(provider)
        t = now()
        let after = states[provider] ?? KeySetState()
        if fetched {
            // A fresh, successful fetch: its answer is authoritative.
            if let key = after.keys[kid] { return key }
            if let reason = after.unusable[kid] { throw .invalid("\(who)'s key for this key id is unusable: \(reason)") }
            throw .invalid("key id not in \(who)'s JWKS")
        }
        // The fetch failed: a still-usable cache (fresh, or stale within the grace) still answers for keys it has.
        if after.isUsableStale(t), let key = after.keys[kid] { return key }
        if after.isFresh(t), let reason = after.unusable[kid] { throw .invalid("\(who)'s key for this key id is unusable: \(reason)") }
        throw TokenError(kind: .keysUnavailable, message: "\(who)'s signing keys are unavailable")
    }

    /// Fetches the JWKS of `providers` concurrently (`sendAll`), retrying transient failures
    /// within the deadline, and updates their cache state.
    /// - Returns: the providers whose fetch succeeded.
    @discardableResult
    private func refresh(_ providers: [IdentityProvider], deadline: Deadline) -> Set<IdentityProvider> {
        guard !providers.isEmpty else { return [] }
        let started = now()
        var pending = providers
        var failures: [IdentityProvider: String] = [:]
        for attempt in 1...KeyCachePolicy.maxAttempts {
            guard deadline.remainingMilliseconds >= KeyCachePolicy.minimumMillisecondsToFetch else {
                for p in pending where failures[p] == nil { failures[p] = "no time left before the deadline" }
                break
            }
            // Only a request actually sent counts as an attempt (for the re-fetch rate limits).
            if attempt == 1 { for p in providers { states[p, default: KeySetState()].lastAttemptAt = started } }
            let timeout = deadline.requestTimeout(cap: KeyCachePolicy.requestTimeoutMilliseconds)
            let requests = pending.map {
                HTTPRequest(url: configuration.settings(for: $0).jwksURL, headers: [("Accept", "application/json")], timeoutMilliseconds: timeout,
                            maxResponseBytes: KeyCachePolicy.maxResponseBytes)
            }
            let results = http.sendAll(requests)
            var retry: [IdentityProvider] = []
            for (p, result) in zip(pending, results) {
                switch result {
                case .failure(let error) where error.kind == .responseTooLarge:
                    failures[p] = "JWKS response too large" // cut off while arriving
                case .failure(let error):
                    failures[p] = "transfer failed (\(error.kind))"
                    if error.isRetryable { retry.append(p) }
                case .success(let response):
                    if response.status == 429 || (500...599).contains(response.status) {
                        failures[p] = "HTTP \(response.status)"
                        retry.append(p)
                    } else if response.status != 200 {
                        failures[p] = "HTTP \(response.status)"
                    } else if response.body.count > KeyCachePolicy.maxResponseBytes {
                        failures[p] = "JWKS response too large"
                    } else if let set = ParsedKeySet.parse(response.body) {
                        if set.keys.isEmpty {
                            failures[p] = "JWKS has no usable RS256 key"
                        } else {
                            failures[p] = nil
                            let fetchedAt = now()
                            var s = states[p, default: KeySetState()]
                            s.keys = set.keys
                            s.unusable = set.unusable
                            s.expiresAt = fetchedAt + freshnessLifetime(response)
                            s.successfulFetches += 1
                            states[p] = s
                        }
                    } else {
                        failures[p] = "response is not a JWKS"
                    }
                }
            }
            pending = retry
            if pending.isEmpty || attempt == KeyCachePolicy.maxAttempts { break }
            let delay = RetryPolicy(maxAttempts: KeyCachePolicy.maxAttempts, baseDelayMilliseconds: 50, maxDelayMilliseconds: 200).delay(beforeRetry: attempt)
            guard deadline.remainingMilliseconds > Int64(delay) + KeyCachePolicy.minimumMillisecondsToFetch else { break }
            Clock.sleep(milliseconds: delay)
        }
        var succeeded = Set<IdentityProvider>()
        for p in providers {
            states[p, default: KeySetState()].lastFailure = failures[p]
            if failures[p] == nil { succeeded.insert(p) }
        }
        return succeeded
    }
}
