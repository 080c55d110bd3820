import PlatformSupport
import StrictJSON
import TokenVerification

/// `users/{uuid}/account/providers.json`: the account's linked identities, and the bookkeeping
/// that keeps them and the identity files in agreement under races and crashes:
///
/// - every link has a `linkID`, also stored as the identity file's metadata and in every session
///   signed in with it: an identity file belongs to this account's link only if its link id is
///   listed here, and a session works only while its link id is listed;
/// - `pending`: links under way. A link claims its provider slot here first (one conditional
///   write, so two links of one provider cannot both win), then creates the identity file, then
///   activates the entry. A sign-in with an identity whose file names a pending link completes it;
/// - `retired`: links that were unlinked (the most recent few), so an unlink that failed after
///   committing can be finished, and so the leftover identity file is recognised as stale.
///
/// An identity file whose link id is neither listed nor pending here is stale: no operation can
/// ever list it again, so the next one that finds it removes it (that exact version).
package struct ProvidersDocument: Sendable, Equatable {
    /// A pending claim older than this is abandoned (its link crashed): a later link of the same
    /// provider may take the slot. Far longer than any invocation can run.
    package static let pendingLifetimeMs: Int64 = 900_000
    package static let maxRetired = 8

    package var primaryProvider: IdentityProvider
    package var providers: [ProviderLink]
    package var pending: [PendingLink] = []
    package var retired: [RetiredLink] = []
    /// When the account's deletion committed (docs/API.md, auth-link `delete`). Set once, never
    /// cleared: every flow reads providers.json, so from this write on none of them reaches the
    /// account, and every conditional update of it refuses to go on.
    package var deletedAtMs: Int64?
    /// The App Store purchases claimed for this account (`purchases/apple/<id>`), listed before
    /// each claim file is written, so that a deletion (which commits in this document) always
    /// sees every claim file it must release.
    package var purchases: [String] = []
    /// An operator's disable (docs/operations.md): while set, sign-in, refresh and every auth-link
    /// action of the account answer ACCOUNT_DISABLED and change nothing. Kept here because every
    /// one of those paths already reads this document in the round it makes anyway.
    package var disabled: AccountDisable?

    package var isDeleted: Bool { deletedAtMs != nil }
    package var isDisabled: Bool { disabled != nil }
    /// Members this version does not know, kept as read so an older function never drops what a
    /// newer one wrote.
    package var extra = JSONObject()

    package init(
        primaryProvider: IdentityProvider, providers: [ProviderLink], pending: [PendingLink] = [],
        retired: [RetiredLink] = []
    ) {
        self.primaryProvider = primaryProvider
        self.providers = providers
        self.pending = pending
        self.retired = retired
    }

    /// Where an identity file's link stands in this document.
    package enum LinkState: Equatable, Sendable {
        case active
        /// Claimed, identity file possibly written, not yet listed.
        case pending
        /// A file written before link ids existed, for an identity this document does not list:
        /// a link that stopped between its two writes (listed again, as that version did).
        case legacyUnlisted
        /// Unlinked, or never completed and since abandoned: the file is a leftover.
        case stale
        /// The new identity file of an app transfer's re-key whose providers.json write has not
        /// happened yet (contract v4): the file's link id is listed under the old id with the
        /// transfer the file names, not yet re-keyed. Whoever meets it finishes the re-key.
        case rekeying
    }

    /// Where the identity file (`provider`, `id`, written with `linkID` and, for a re-key, the
    /// `transferSub` it came from) stands in this document.
    package func state(
        of provider: IdentityProvider, id: String, linkID: String?, transferSub: String? = nil
    ) -> LinkState {
        if providers.contains(where: { $0.type == provider && $0.id == id && $0.linkID == linkID }) { return .active }
        // A former id of a re-keyed link (contract v5): its identity file stays, so that a token
        // still carrying it (an older install on the sending team's Services ID) signs in to the
        // account and never makes a new one.
        if providers.contains(where: { $0.type == provider && $0.linkID == linkID && $0.formerIDs.contains(id) }) {
            return linkID == nil ? .stale : .active
        }
        if let transferSub, rekeyable(provider, linkID: linkID, transferSub: transferSub) != nil {
            return .rekeying
        }
        guard let linkID else {
            return providers.contains(where: { $0.type == provider }) ? .stale : .legacyUnlisted
        }
        if pending.contains(where: { $0.linkID == linkID && $0.type == provider && $0.id == id }) { return .pending }
        return .stale
    }

    /// Whether a session that signed in with `identity` may still act (docs/API.md: "sessions
    /// follow their identity"). Records from before sessions carried their identity match a
    /// listed link of their provider that predates link ids.
    ///
    /// A link an app transfer re-keyed keeps its link id and its former ids (`formerIDs`), so a
    /// session signed in before the transfer still follows it; an unlink removes the link with
    /// its former ids, and a later link of the same identity has a new link id, so nothing revives
    /// a session of an unlinked identity.
    package func lists(_ identity: SessionIdentity) -> Bool { listedLink(identity) != nil }

    /// The entry a session that signed in with `identity` belongs to, if it is listed.
    package func listedLink(_ identity: SessionIdentity) -> ProviderLink? {
        guard let sub = identity.subject else {
            return providers.first { $0.type == identity.provider && $0.linkID == nil }
        }
        return providers.first {
            $0.type == identity.provider && $0.linkID == identity.linkID && ($0.id == sub || $0.formerIDs.contains(sub))
        }
    }

    /// Whether `record`'s session may still act: its identity is listed (`lists`), not suspended,
    /// and it signed in after that link's sessions were last ended (`sessionsNotBeforeMs`).
    package func accepts(_ record: SessionRecord) -> Bool {
        guard let link = listedLink(record.identity), !link.isSuspended else { return false }
        // A session signed in at the very millisecond its sessions were ended counts as ended.
        return record.signInAtMs > (link.sessionsNotBeforeMs ?? .min)
    }

    /// Whether the listed `provider` identity `id` is suspended.
    package func isSuspended(_ provider: IdentityProvider, id: String) -> Bool {
        index(of: provider, id: id).map { providers[$0].isSuspended } ?? false
    }

    package func index(of provider: IdentityProvider, id: String) -> Int? {
        providers.firstIndex { $0.type == provider && $0.id == id }
    }

    package func active(_ provider: IdentityProvider) -> ProviderLink? { providers.first { $0.type == provider } }

    /// The live claim on `provider`'s slot, if any (expired claims do not hold it).
    package func livePending(_ provider: IdentityProvider, nowMs: Int64) -> PendingLink? {
        pending.first { $0.type == provider && nowMs - $0.sinceMs < ProvidersDocument.pendingLifetimeMs }
    }

    /// Moves a pending link into the list. False when it is not pending (any more).
    package mutating func activate(linkID: String, nowMs: Int64, email: String?, displayName: String?) -> Bool {
        guard let i = pending.firstIndex(where: { $0.linkID == linkID }) else { return false }
        let claim = pending.remove(at: i)
        guard active(claim.type) == nil else { return false }
        let now = ISO8601.format(milliseconds: nowMs)
        providers.append(
            ProviderLink(
                type: claim.type, id: claim.id, email: email, displayName: displayName, linkedAt: now, lastUsed: now,
                isPrimary: false, linkID: claim.linkID))
        normalizePrimary()
        return true
    }

    /// Records an unlinked (or cancelled) link so its leftovers can be recognised and finished.
    package mutating func retire(
        _ provider: IdentityProvider, id: String, linkID: String?, nowMs: Int64, transfers: [PreparedTransfer] = [],
        formerIDs: [String] = []
    ) {
        var link = RetiredLink(type: provider, id: id, linkID: linkID, atMs: nowMs, transfers: transfers)
        link.formerIDs = formerIDs
        retired.append(link)
        retired = Array(retired.suffix(ProvidersDocument.maxRetired))
    }

    /// Re-derives every `isPrimary` flag from `primaryProvider`, so the two never disagree.
    package mutating func normalizePrimary() {
        if !providers.contains(where: { $0.type == primaryProvider }), let first = providers.first {
            primaryProvider = first.type
        }
        var marked = false
        for i in providers.indices {
            providers[i].isPrimary = !marked && providers[i].type == primaryProvider
            if providers[i].isPrimary { marked = true }
        }
    }
}

/// One entry of `providers.json`.
package struct ProviderLink: Sendable, Equatable {
    package var type: IdentityProvider
    package var id: String
    package var email: String?
    package var displayName: String?
    package var linkedAt: String
    package var lastUsed: String
    package var isPrimary: Bool
    /// Nil for links made before link ids existed.
    package var linkID: String?
    /// Apple's `email-disabled` / `email-enabled` notifications: whether mail to the relay
    /// address is delivered. Nil until Apple has said.
    package var emailDeliverable: Bool?
    /// The ids this link had before an app transfer re-keyed it (contract v4), oldest first: a
    /// session signed in with one of them still follows this link (same link id), and nothing else
    /// signs in with them any more.
    package var formerIDs: [String] = []
    /// App transfers prepared for this link (Apple only; see `PreparedTransfer`).
    package var transfers: [PreparedTransfer] = []
    /// Sessions signed in with this link before this instant no longer work (Google's
    /// `sessions-revoked`, `tokens-revoked`, `account-disabled`): one conditional write ends every
    /// one of them at once, however many there are and whatever sign-in raced the event.
    package var sessionsNotBeforeMs: Int64?
    /// Google's suspension of this identity, as last applied here (`IdentitySuspension`); while
    /// suspended, no session signed in with it works.
    package var suspension: IdentitySuspension?

    /// Whether sign-in with this link is suspended.
    package var isSuspended: Bool { suspension?.suspended == true }

    package init(
        type: IdentityProvider, id: String, email: String?, displayName: String?, linkedAt: String, lastUsed: String,
        isPrimary: Bool, linkID: String?, emailDeliverable: Bool? = nil
    ) {
        self.type = type
        self.id = id
        self.email = email
        self.displayName = displayName
        self.linkedAt = linkedAt
        self.lastUsed = lastUsed
        self.isPrimary = isPrimary
        self.linkID = linkID
        self.emailDeliverable = emailDeliverable
    }
}

/// A claim on a provider slot by a link under way (see `ProvidersDocument`).
package struct PendingLink: Sendable, Equatable {
    package var type: IdentityProvider
    package var id: String
    package var linkID: String
    package var sinceMs: Int64

    package init(type: IdentityProvider, id: String, linkID: String, sinceMs: Int64) {
        self.type = type
        self.id = id
        self.linkID = linkID
        self.sinceMs = sinceMs
    }
}

/// A link that was unlinked or cancelled.
package struct RetiredLink: Sendable, Equatable {
    package var type: IdentityProvider
    package var id: String
    package var linkID: String?
    package var atMs: Int64
    /// The app transfers the link had (contract v4): their files, and the old identity file of a
    /// re-key not cleaned up, name the account until the unlink's clean-up (or a later one, or
    /// the account's deletion) removes them.
    package var transfers: [PreparedTransfer] = []
    /// The ids an app transfer re-keyed the link from (contract v5): their identity files still
    /// named the account until the unlink's clean-up removes them.
    package var formerIDs: [String] = []

    package init(
        type: IdentityProvider, id: String, linkID: String? = nil, atMs: Int64, transfers: [PreparedTransfer] = []
    ) {
        self.type = type
        self.id = id
        self.linkID = linkID
        self.atMs = atMs
        self.transfers = transfers
    }
}
