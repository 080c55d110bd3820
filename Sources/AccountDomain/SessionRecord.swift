import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// `users/{uuid}/account/sessions/{sessionID}.json`: one refresh session (a sign-in on one
/// device). Holds hashes only. `signInAt` is the original sign-in, carried through every rotation
/// for the recent-auth rule; `expiresAt` is absolute (rotation never extends it).
public struct SessionRecord: Sendable, Equatable {
    /// At most this many tokens superseded inside the grace window are remembered (see `decide`).
    static let maxSuperseded = 16

    public var sessionID: String
    public var serviceUserID: String
    public var provider: IdentityProvider
    public var signInAtMs: Int64
    public var expiresAtMs: Int64
    public var generation: Int64
    public var currentHash: String
    public var currentIssuedAtMs: Int64
    public var previousHash: String?
    public var previousRotatedAtMs: Int64?
    public var superseded: [String]
    public var revokedAtMs: Int64?
    public var revokedReason: String?

    public var isRevoked: Bool { revokedAtMs != nil }

    public static func new(token: RefreshToken, provider: IdentityProvider, nowMs: Int64, ttlSeconds: Int64) -> SessionRecord {
        SessionRecord(sessionID: token.sessionID, serviceUserID: token.serviceUserID, provider: provider, signInAtMs: nowMs,
                      expiresAtMs: nowMs + ttlSeconds * 1000, generation: 1, currentHash: token.hash, currentIssuedAtMs: nowMs,
                      previousHash: nil, previousRotatedAtMs: nil, superseded: [], revokedAtMs: nil, revokedReason: nil)
    }

    public var json: JSONValue {
        func ts(_ v: Int64?) -> JSONValue { v.map { .string(ISO8601.format(milliseconds: $0, fractional: true)) } ?? .null }
        return .object(JSONObject([
            ("version", .int(1)), ("sessionID", .string(sessionID)), ("serviceUserID", .string(serviceUserID)),
            ("provider", .string(provider.rawValue)), ("signInAt", ts(signInAtMs)), ("expiresAt", ts(expiresAtMs)),
            ("generation", .int(generation)),
            ("current", .object(JSONObject([("hash", .string(currentHash)), ("issuedAt", ts(currentIssuedAtMs))]))),
            ("previous", previousHash.map { .object(JSONObject([("hash", .string($0)), ("rotatedAt", ts(previousRotatedAtMs))])) } ?? .null),
            ("superseded", .array(superseded.map(JSONValue.string))),
            ("revokedAt", ts(revokedAtMs)), ("revokedReason", revokedReason.map(JSONValue.string) ?? .null),
        ]))
    }

    init?(json: JSONValue) {
        func ts(_ v: JSONValue?) -> Int64? { v?.stringValue.flatMap(ISO8601.parse) }
        guard let o = json.objectValue, let sid = o["sessionID"]?.stringValue, let uid = o["serviceUserID"]?.stringValue,
              let provider = o["provider"]?.stringValue.flatMap(IdentityProvider.init(rawValue:)),
              let signIn = ts(o["signInAt"]), let expires = ts(o["expiresAt"]), let current = o["current"]?.objectValue,
              let currentHash = current["hash"]?.stringValue, let issued = ts(current["issuedAt"])
        else { return nil }
        let previous = o["previous"]?.objectValue
        self.init(sessionID: sid, serviceUserID: uid, provider: provider, signInAtMs: signIn, expiresAtMs: expires,
                  generation: o["generation"]?.int64Value ?? 1, currentHash: currentHash, currentIssuedAtMs: issued,
                  previousHash: previous?["hash"]?.stringValue, previousRotatedAtMs: ts(previous?["rotatedAt"]),
                  superseded: o["superseded"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  revokedAtMs: ts(o["revokedAt"]), revokedReason: o["revokedReason"]?.stringValue)
    }

    public init(sessionID: String, serviceUserID: String, provider: IdentityProvider, signInAtMs: Int64, expiresAtMs: Int64,
                generation: Int64, currentHash: String, currentIssuedAtMs: Int64, previousHash: String?, previousRotatedAtMs: Int64?,
                superseded: [String], revokedAtMs: Int64?, revokedReason: String?)
    {
        self.sessionID = sessionID
        self.serviceUserID = serviceUserID
        self.provider = provider
        self.signInAtMs = signInAtMs
        self.expiresAtMs = expiresAtMs
        self.generation = generation
        self.currentHash = currentHash
        self.currentIssuedAtMs = currentIssuedAtMs
        self.previousHash = previousHash
        self.previousRotatedAtMs = previousRotatedAtMs
        self.superseded = superseded
        self.revokedAtMs = revokedAtMs
        self.revokedReason = revokedReason
    }

    /// What a presented token means for this session (CONTRACT.md, auth-refresh):
    public enum Decision: Equatable, Sendable {
        /// The current token: rotate normally.
        case rotate
        /// The token just rotated out, within the grace: answer with yet another token; the
        /// current one stops working. Concurrent refreshes of one token all land here after the
        /// first, so they leave exactly one working token and no revoked session.
        case graceRotate
        /// A token this session issued inside a grace window and then replaced: it stops
        /// working, but presenting it is not theft (its sibling answer won), so no revocation.
        case superseded
        /// An older token, or the previous one after the grace: the session is revoked.
        case reuse
        case expired
        case revoked
    }

    public func decide(tokenHash: String, nowMs: Int64, graceSeconds: Int64) -> Decision {
        let presented = Array(tokenHash.utf8)
        func matches(_ stored: String?) -> Bool { stored.map { constantTimeEqual(Array($0.utf8), presented) } ?? false }
        if isRevoked { return .revoked }
        if nowMs >= expiresAtMs { return .expired }
        if matches(currentHash) { return .rotate }
        if matches(previousHash) {
            let rotatedAt = previousRotatedAtMs ?? 0
            return nowMs - rotatedAt <= graceSeconds * 1000 ? .graceRotate : .reuse
        }
        if superseded.contains(where: { matches($0) }) { return .superseded }
        return .reuse
    }

    /// The record after answering `decision` with `newToken`.
    public func rotated(by decision: Decision, newToken: RefreshToken, nowMs: Int64) -> SessionRecord {
        var next = self
        next.generation += 1
        switch decision {
        case .rotate:
            next.previousHash = currentHash
            next.previousRotatedAtMs = nowMs
            next.superseded = []
        case .graceRotate:
            // The grace window stays anchored at the original rotation; the replaced current
            // token is remembered as superseded (bounded list).
            next.superseded = Array((superseded + [currentHash]).suffix(SessionRecord.maxSuperseded))
        default:
            preconditionFailure("rotated(by:) takes .rotate or .graceRotate")
        }
        next.currentHash = newToken.hash
        next.currentIssuedAtMs = nowMs
        return next
    }

    public func revoked(reason: String, nowMs: Int64) -> SessionRecord {
        var next = self
        next.revokedAtMs = nowMs
        next.revokedReason = reason
        return next
    }
}
