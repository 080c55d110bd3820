import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON

/// How long keys are kept and how often they may be fetched (docs/decisions/tokens.md, "JWKS cache").
/// All times are seconds on the verifier's clock.
package enum KeyCachePolicy {
    /// Freshness when the response has no usable `Cache-Control: max-age`.
    static let defaultMaxAge: Int64 = 3600
    /// Longest freshness honoured.
    static let maximumMaxAge: Int64 = 24 * 3600
    /// Shortest freshness honoured (`max-age=0`, `no-cache`, `no-store`): never a fetch per sign-in.
    static let minimumMaxAge: Int64 = 60
    /// An unknown `kid` triggers a re-fetch only if the last attempt is at least this old.
    static let unknownKeyRefetchInterval: Int64 = 60
    /// After the cache expires, while fetches fail, its keys stay usable this much longer.
    package static let staleGrace: Int64 = 6 * 3600
    /// While serving stale keys, a failed fetch is not retried sooner than this.
    static let failedFetchRetryInterval: Int64 = 30
    /// Fetch attempts per refresh (the first and one retry on a connection error, timeout, 429 or 5xx).
    static let maxAttempts = 2
    /// The refresh's retry budget: `maxAttempts`, full-jitter backoff from 50 ms capped at 200 ms.
    static let retry = RetryPolicy(maxAttempts: maxAttempts, baseDelayMilliseconds: 50, maxDelayMilliseconds: 200)
    /// Per-attempt HTTP timeout cap, further capped by the invocation deadline.
    static let requestTimeoutMilliseconds = 2_500
    /// A fetch is not started with less than this left before the deadline.
    static let minimumMillisecondsToFetch: Int64 = 100
    /// Larger JWKS responses are refused.
    static let maxResponseBytes = 256 * 1024
    /// Keys beyond this count in one set are ignored.
    static let maxKeys = 64
    /// RSA moduli above this are refused (verification cost grows with the square of the size).
    static let maximumModulusBits = 8192
}

/// One provider's cached JWKS and the bookkeeping of its fetches.
struct KeySetState {
    var keys: [String: RSAPublicKey] = [:]
    /// Key ids present in the set but unusable, with why (too small, not RSA, …).
    var unusable: [String: String] = [:]
    /// Fresh until this time; usable (stale) until `expiresAt + staleGrace` if fetches fail.
    var expiresAt: Int64 = .min
    var hasKeys: Bool { !keys.isEmpty }
    var lastAttemptAt: Int64?
    /// What the last fetch attempt ran into when it failed (status or transfer error, never a
    /// body); nil when it succeeded.
    var lastFailure: String?
    var successfulFetches = 0

    func isFresh(_ now: Int64) -> Bool { hasKeys && now < expiresAt }
    func isUsableStale(_ now: Int64) -> Bool { hasKeys && now < expiresAt &+ KeyCachePolicy.staleGrace }
}

/// A parsed JWKS: usable RS256 keys by `kid`, and the refused ones with the reason.
struct ParsedKeySet {
    var keys: [String: RSAPublicKey] = [:]
    var unusable: [String: String] = [:]

    /// Parses a JWKS document. nil when the document itself is not a JWKS.
    static func parse(_ body: [UInt8]) -> ParsedKeySet? {
        guard let doc = try? JSONParser.parse(body), let list = doc["keys"]?.arrayValue else { return nil }
        var set = ParsedKeySet()
        var seen = Set<String>()
        for entry in list.prefix(KeyCachePolicy.maxKeys) {
            guard let jwk = entry.objectValue, let kid = jwk["kid"]?.stringValue, !kid.isEmpty else { continue }
            guard seen.insert(kid).inserted else {
                // Two keys under one kid: which one signed is ambiguous, so neither is used.
                set.keys[kid] = nil
                set.unusable[kid] = "its key id appears twice in the JWKS"
                continue
            }
            switch key(from: jwk) {
            case .success(let key): set.keys[kid] = key
            case .failure(let reason): set.unusable[kid] = reason.text
            }
        }
        return set
    }

    struct Reason: Error { let text: String }

    static func key(from jwk: JSONObject) -> Result<RSAPublicKey, Reason> {
        guard jwk["kty"]?.stringValue == "RSA" else { return .failure(Reason(text: "it is not an RSA key")) }
        if let use = jwk["use"], use.stringValue != "sig" { return .failure(Reason(text: "it is not a signing key")) }
        if let alg = jwk["alg"], alg.stringValue != "RS256" { return .failure(Reason(text: "it is not an RS256 key")) }
        guard let nText = jwk["n"]?.stringValue, let eText = jwk["e"]?.stringValue,
            let n = Base64.urlDecode(nText), let e = Base64.urlDecode(eText)
        else { return .failure(Reason(text: "its modulus or exponent is not canonical base64url")) }
        do throws(RSAPublicKey.KeyError) {
            let key = try RSAPublicKey(modulus: n, exponent: e, minimumBits: 2048)
            guard key.bits <= KeyCachePolicy.maximumModulusBits else {
                return .failure(Reason(text: "its RSA key is larger than 8192 bits"))
            }
            return .success(key)
        } catch {
            switch error {
            case .tooSmall: return .failure(Reason(text: "its RSA key is smaller than 2048 bits"))
            case .invalidComponents: return .failure(Reason(text: "its RSA modulus or exponent is invalid"))
            }
        }
    }
}

/// Freshness from the response's `Cache-Control: max-age` less its `Age`, clamped to the policy.
func freshnessLifetime(_ response: HTTPResponse) -> Int64 {
    var maxAge: Int64?
    var noCache = false
    if let cc = response.header("Cache-Control") {
        for directive in cc.lowercasedASCII().split(separator: ",") {
            let d = String(directive).trimmingASCIISpaces()
            if d == "no-cache" || d == "no-store" { noCache = true }
            guard d.hasPrefix("max-age=") else { continue }
            var value = d.utf8.dropFirst(8)
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard !value.isEmpty, value.count <= 12, value.allSatisfy(ASCII.isDigit), let v = Int64(Substring(value))
            else { continue }
            maxAge = min(maxAge ?? v, v)
        }
    }
    if noCache { return KeyCachePolicy.minimumMaxAge }
    guard var lifetime = maxAge else { return KeyCachePolicy.defaultMaxAge }
    if let ageText = response.header("Age"), ageText.count <= 12, let age = Int64(ageText), age > 0 { lifetime -= age }
    return min(KeyCachePolicy.maximumMaxAge, max(KeyCachePolicy.minimumMaxAge, lifetime))
}
