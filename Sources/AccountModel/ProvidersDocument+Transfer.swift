import PlatformSupport
import TokenVerification

/// The app-transfer bookkeeping of providers.json (contract v4; `PreparedTransfer`).
extension ProvidersDocument {
    /// At most this many former ids are kept per link: one per app transfer, and an app changes
    /// teams a handful of times in its life at most.
    package static let maxFormerIDs = 4
    /// At most this many prepared transfers per link (one per recipient team an operator named).
    package static let maxTransfers = 4

    /// The link (by link id) that a re-key through `transferSub` would move, and that transfer's
    /// index in it: a listed link of `provider` prepared for that transfer and not re-keyed yet.
    package func rekeyable(
        _ provider: IdentityProvider, linkID: String?, transferSub: String
    ) -> (link: Int, transfer: Int)? {
        guard let i = providers.firstIndex(where: { $0.type == provider && $0.linkID == linkID }),
            let j = providers[i].transfers.firstIndex(where: { $0.sub == transferSub && $0.rekeyedFrom == nil })
        else { return nil }
        return (i, j)
    }

    /// The Apple link prepared for `transferSub` (re-keyed or not), with that transfer's index.
    package func link(preparedFor transferSub: String) -> (link: Int, transfer: Int)? {
        for (i, link) in providers.enumerated() where link.type == .apple {
            if let j = link.transfers.firstIndex(where: { $0.sub == transferSub }) { return (i, j) }
        }
        return nil
    }

    /// Links whose re-key committed and whose clean-up (the transfer files; v4 also removed the old
    /// identity file, which v5 keeps) is not done yet.
    package var rekeysToClean: [ProviderLink] {
        providers.filter { link in link.transfers.contains { $0.rekeyedFrom != nil } }
    }

    /// Whether the identity file of `provider`/`id` with `linkID` is the old one of a re-key that
    /// committed and is not cleaned up yet. (v5: such a file is `LinkState.active` once the
    /// commit lists the former id, so this matters only for documents written by v4.)
    package func isOldFileOfUnfinishedRekey(_ provider: IdentityProvider, id: String, linkID: String?) -> Bool {
        provider == .apple
            && rekeysToClean.contains { link in
                link.linkID == linkID && link.transfers.contains { $0.rekeyedFrom == id }
            }
    }

    /// The app-transfer files of every link (prepared or re-keyed, listed or retired) and the old
    /// identity files of re-keys not cleaned up: what a deletion removes besides the listed
    /// identities' files, when they name the account.
    package var transferMappingKeys: [String] {
        (providers.map(\.transfers) + retired.map(\.transfers)).joined().flatMap { t in
            [AccountKeys.appleTransfer(t.sub)] + (t.rekeyedFrom.map { [AccountKeys.identity(.apple, $0)] } ?? [])
        }
    }

    /// The re-key's commit (providers.json, If-Match): the link prepared for `transferSub` takes
    /// `newSub` as its id, keeps its link id and the former id, and takes the new email. False
    /// when nothing changes (already re-keyed to `newSub`); `nil` when the rule no longer allows it
    /// (the link was unlinked, re-keyed to another `sub`, or the transfer is gone).
    package mutating func rekey(
        linkID: String?, transferSub: String, newSub: String, email: String?, nowMs: Int64
    ) -> Bool? {
        if providers.contains(where: { $0.type == .apple && $0.linkID == linkID && $0.id == newSub }) { return false }
        guard let (i, j) = rekeyable(.apple, linkID: linkID, transferSub: transferSub) else { return nil }
        let old = providers[i]
        providers[i].transfers[j].rekeyedFrom = old.id
        providers[i].transfers[j].formerEmail = old.email
        providers[i].formerIDs = Array((old.formerIDs + [old.id]).suffix(ProvidersDocument.maxFormerIDs))
        providers[i].id = newSub
        if let email { providers[i].email = email }
        providers[i].emailDeliverable = nil  // Apple's events about the old relay address say nothing of the new one
        providers[i].lastUsed = ISO8601.format(milliseconds: nowMs)
        return true
    }

    /// Records a transfer prepared for the Apple link (`sub`, `linkID`) toward `team`. False when
    /// it is recorded already; nil when that link is not listed (any more) under that id.
    package mutating func prepare(
        sub: String, linkID: String?, team: String, transferSub: String, nowMs: Int64
    ) -> Bool? {
        guard let i = providers.firstIndex(where: { $0.type == .apple && $0.id == sub && $0.linkID == linkID })
        else { return nil }
        if providers[i].transfers.contains(where: { $0.team == team && $0.sub == transferSub }) { return false }
        providers[i].transfers.removeAll { $0.team == team && $0.rekeyedFrom == nil }
        providers[i].transfers.append(PreparedTransfer(team: team, sub: transferSub, atMs: nowMs))
        providers[i].transfers = Array(providers[i].transfers.suffix(ProvidersDocument.maxTransfers))
        return true
    }
}
