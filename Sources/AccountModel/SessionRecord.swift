import CryptoPrimitives

/// `users/{uuid}/account/sessions/{sessionID}.json`: one refresh session (a sign-in on one
/// device). Holds hashes of tokens only. `signInAt` is the original sign-in, carried through every
/// rotation for the recent-auth rule; `expiresAt` is absolute (rotation never extends it).
///
/// Tokens of a session, by what the session did with them (see `classify`):
/// `current`; `previous`, rotated out by the last normal rotation at `previousRotatedAt`;
/// `superseded`, current tokens replaced by a grace rotation since then (each at its
/// `supersededAt`); `replaced`, every other token it issued and replaced (the most recent
/// `maxReplaced`). Only a token in one of these was issued by this session: anything else is
/// refused without changing anything.
///
/// `currentPresentedAt` (v5) is when the current token was first presented: a refresh with it
/// rotates it, any other action records it here before answering. Until then the previous token
/// stays a lost answer's retry however late it comes (docs/API.md, "A phone's life never ends a
/// session"); once it is set, the previous token after the grace is reuse.
package struct SessionRecord: Sendable, Equatable {
    /// Superseded tokens remembered before the next normal rotation moves them to `replaced`.
    package static let maxSuperseded = 16
    /// Replaced tokens remembered for reuse detection. An older one is treated like a token the
    /// session never issued (refused, nothing revoked): by then its thief has nothing to gain.
    package static let maxReplaced = 32

    package var sessionID: String
    package var serviceUserID: String
    package var identity: SessionIdentity
    /// The app's label for the device ("iPhone 15 · Photos 2.3"), shown in the session list.
    package var device: String?
    package var signInAtMs: Int64
    package var expiresAtMs: Int64
    package var generation: Int64
    package var currentHash: String
    package var currentIssuedAtMs: Int64
    /// nil: not presented yet. Records written before v5 have no such field; they read as
    /// presented at issue (the v4 rule they were issued under).
    package var currentPresentedAtMs: Int64?
    package var previousHash: String?
    package var previousRotatedAtMs: Int64?
    package var superseded: [String]
    /// When each of `superseded` was superseded (same order); its grace counts from then. Empty
    /// for records whose writer did not keep it: the grace then counts from `previousRotatedAt`.
    package var supersededAtMs: [Int64]
    package var replaced: [String]
    package var revokedAtMs: Int64?
    package var revokedReason: String?

    package var isRevoked: Bool { revokedAtMs != nil }

    package func isLive(nowMs: Int64) -> Bool { !isRevoked && nowMs < expiresAtMs }

    package static func new(
        token: RefreshToken, identity: SessionIdentity, device: String?, nowMs: Int64, ttlSeconds: Int64
    ) -> SessionRecord {
        SessionRecord(
            sessionID: token.sessionID, serviceUserID: token.serviceUserID, identity: identity, device: device,
            signInAtMs: nowMs,
            expiresAtMs: nowMs + ttlSeconds * 1000, generation: 1, currentHash: token.hash, currentIssuedAtMs: nowMs,
            currentPresentedAtMs: nil, previousHash: nil, previousRotatedAtMs: nil, superseded: [], supersededAtMs: [],
            replaced: [], revokedAtMs: nil, revokedReason: nil)
    }

    package init(
        sessionID: String, serviceUserID: String, identity: SessionIdentity, device: String?, signInAtMs: Int64,
        expiresAtMs: Int64,
        generation: Int64, currentHash: String, currentIssuedAtMs: Int64, currentPresentedAtMs: Int64?,
        previousHash: String?, previousRotatedAtMs: Int64?, superseded: [String], supersededAtMs: [Int64],
        replaced: [String], revokedAtMs: Int64?, revokedReason: String?
    ) {
        self.sessionID = sessionID
        self.serviceUserID = serviceUserID
        self.identity = identity
        self.device = device
        self.signInAtMs = signInAtMs
        self.expiresAtMs = expiresAtMs
        self.generation = generation
        self.currentHash = currentHash
        self.currentIssuedAtMs = currentIssuedAtMs
        self.currentPresentedAtMs = currentPresentedAtMs
        self.previousHash = previousHash
        self.previousRotatedAtMs = previousRotatedAtMs
        self.superseded = superseded
        self.supersededAtMs = supersededAtMs
        self.replaced = replaced
        self.revokedAtMs = revokedAtMs
        self.revokedReason = revokedReason
    }

    /// What a presented token is to this session (docs/API.md, auth-refresh).
    package enum Presented: Equatable, Sendable {
        /// The current token.
        case current
        /// The token the last normal rotation replaced, within the grace or (v5) while the current
        /// token has not been presented: a lost answer's retry.
        case justRotated
        /// Replaced by a grace rotation less than the grace ago: refused, nothing revoked.
        case supersededInGrace
        /// Issued and replaced by this session, outside those windows: reuse, the session is revoked.
        case reused
        /// Never issued by this session (a forged or corrupted secret): refused, nothing changes.
        case unknown
        /// A token of this session, but the session has ended.
        case expired
        case revoked

        /// A token this session issued and would act on (refresh it, or revoke the session for
        /// reuse): what a disabled account answers ACCOUNT_DISABLED to, changing nothing.
        package var isIssuedByThisSession: Bool { self == .current || self == .justRotated || self == .reused }
    }

    package func classify(tokenHash: String, nowMs: Int64, graceSeconds: Int64) -> Presented {
        let presented = Array(tokenHash.utf8)
        func matches(_ stored: String?) -> Bool { stored.map { constantTimeEqual(Array($0.utf8), presented) } ?? false }
        func within(_ since: Int64?) -> Bool { since.map { nowMs - $0 <= graceSeconds * 1000 } ?? false }
        let kind: Presented
        if matches(currentHash) {
            kind = .current
        } else if matches(previousHash) {
            // v5: the successor nobody has presented yet cannot have reached anyone but the
            // client whose answer was lost, so its retry is answered however late it comes.
            kind = within(previousRotatedAtMs) || currentPresentedAtMs == nil ? .justRotated : .reused
        } else if let index = superseded.firstIndex(where: matches) {
            kind = within(supersededAt(index)) ? .supersededInGrace : .reused
        } else if replaced.contains(where: matches) {
            kind = .reused
        } else {
            return .unknown  // checked first: a forged token learns nothing about the session's state
        }
        if isRevoked { return .revoked }
        if nowMs >= expiresAtMs { return .expired }
        return kind
    }

    /// When `superseded[index]` was superseded; for a record without the times, the normal
    /// rotation (the v4 anchor, never later than the real time).
    private func supersededAt(_ index: Int) -> Int64? {
        supersededAtMs.count == superseded.count ? supersededAtMs[index] : previousRotatedAtMs
    }

    /// Whether the current token's first presentation to an action other than refresh must be
    /// recorded before that action answers: only while a previous token would otherwise still be
    /// answered as a retry.
    package var needsPresentationRecorded: Bool { previousHash != nil && currentPresentedAtMs == nil }

    /// The record after the current token's first presentation to an action other than refresh.
    package func presented(nowMs: Int64) -> SessionRecord {
        var next = self
        next.currentPresentedAtMs = nowMs
        return next
    }

    /// The record after answering a refresh of a `.current` or `.justRotated` token with `newToken`.
    package func rotated(from presented: Presented, newToken: RefreshToken, nowMs: Int64) -> SessionRecord {
        var next = self
        next.generation += 1
        switch presented {
        case .current:
            next.replaced = Array(
                (replaced + [previousHash].compactMap { $0 } + superseded).suffix(SessionRecord.maxReplaced))
            next.previousHash = currentHash
            next.previousRotatedAtMs = nowMs
            next.superseded = []
            next.supersededAtMs = []
        case .justRotated:
            // The grace window stays anchored at the normal rotation; the current token it
            // replaces becomes superseded, its own grace counting from now.
            let all = superseded + [currentHash]
            let times =
                (supersededAtMs.count == superseded.count
                    ? supersededAtMs : superseded.map { _ in previousRotatedAtMs ?? nowMs }) + [nowMs]
            next.superseded = Array(all.suffix(SessionRecord.maxSuperseded))
            next.supersededAtMs = Array(times.suffix(SessionRecord.maxSuperseded))
            next.replaced = Array(
                (replaced + all.dropLast(SessionRecord.maxSuperseded)).suffix(SessionRecord.maxReplaced))
        default:
            preconditionFailure("rotated(from:) takes .current or .justRotated")
        }
        next.currentHash = newToken.hash
        next.currentIssuedAtMs = nowMs
        next.currentPresentedAtMs = nil
        return next
    }

    package func revoked(reason: String, nowMs: Int64) -> SessionRecord {
        var next = self
        next.revokedAtMs = nowMs
        next.revokedReason = reason
        return next
    }
}
