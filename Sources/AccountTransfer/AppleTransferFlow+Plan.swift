import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import TokenVerification

/// One Apple identity listed under `identities/apple/`, as `prepare` reads it (contract v4).
package struct TransferCandidate {
    package var key: String
    package var sub: String
    package var account: Account
    package var linkID: String?

    package var who: String { "apple:\(sub)" }
}

/// What `prepare` does with one identity.
package enum TransferPlan {
    /// Ask Apple for its `transfer_sub`, then record it.
    case ask(TransferCandidate)
    /// Prepared before (providers.json says so) but its file is missing: write it, no request.
    case writeFile(TransferCandidate, transferSub: String)
    case already
    /// Nothing to prepare: why (a stale identity file, a deleted account...).
    case skip(String)
    case fail(who: String, reason: String)
}

/// `prepare`'s per-identity work, a batch at a time: the identity files and their accounts read
/// in two rounds (three when some are prepared already), the transfers recorded in two more:
/// providers.json first (the transfer on the Apple link, If-Match), then the transfer file
/// (create-only). That order keeps every transfer file one that its account lists: a file without
/// its entry is stale for `check`, an entry without its file is repaired (by `check`, or the next
/// pass of `prepare`, which writes it without asking Apple).
extension AppleTransferFlow {
    package func planTransfers(
        _ keys: [String], team: String, deadline: Deadline
    ) throws(AccountError) -> [TransferPlan] {
        var round = Round()
        let fileSlots = keys.map { round.get($0) }
        let files = store.backend.run(round, deadline: deadline)
        var mappings: [IdentityMapping?] = []
        var plans: [TransferPlan?] = []
        for (key, slot) in zip(keys, fileSlots) {
            do throws(AccountError) {
                mappings.append(try store.mapping(files.value(slot), key: key))
                plans.append(mappings.last! == nil ? .skip("the identity file is gone") : nil)
            } catch {
                if case .upstream = error { throw error }
                mappings.append(nil)
                plans.append(.fail(who: Self.who(key), reason: "unreadable identity file"))
            }
        }
        let uuids = Array(Set(mappings.compactMap { $0?.uuid })).sorted()
        var docs = Round()
        let docSlots = uuids.map { (docs.get(AccountKeys.profile($0)), docs.get(AccountKeys.providers($0))) }
        let answers = store.backend.run(docs, deadline: deadline)
        var accounts: [String: Result<Account?, AccountError>] = [:]
        for (uuid, (p, v)) in zip(uuids, docSlots) {
            do throws(AccountError) {
                accounts[uuid] = .success(
                    try store.account(uuid: uuid, profile: answers.value(p), providers: answers.value(v)))
            } catch {
                if case .upstream = error { throw error }
                accounts[uuid] = .failure(error)
            }
        }
        var prepared: [(index: Int, TransferCandidate, String)] = []
        for (i, key) in keys.enumerated() where plans[i] == nil {
            let m = mappings[i]!
            let sub = String(key.dropFirst(AccountKeys.appleIdentityPrefix.count))
            switch accounts[m.uuid]! {
            case .failure: plans[i] = .fail(who: Self.who(key), reason: "unreadable account document")
            case .success(nil): plans[i] = .skip("the account is not complete")
            case .success(let account?):
                let doc = account.providers
                if doc.isDeleted {
                    plans[i] = .skip("the account was deleted")
                } else if doc.state(of: .apple, id: sub, linkID: m.linkID, transferSub: m.transferSub) != .active {
                    plans[i] = .skip("the identity file is not listed by its account")
                } else {
                    let candidate = TransferCandidate(key: key, sub: sub, account: account, linkID: m.linkID)
                    let link = doc.providers.first { $0.type == .apple && $0.id == sub }
                    if let t = link?.transfers.first(where: { $0.team == team && $0.rekeyedFrom == nil }) {
                        prepared.append((i, candidate, t.sub))
                    } else {
                        plans[i] = .ask(candidate)
                    }
                }
            }
        }
        var files3 = Round()
        let transferSlots = prepared.map { files3.get(AccountKeys.appleTransfer($0.2)) }
        let transfers = store.backend.run(files3, deadline: deadline)
        for ((i, candidate, transferSub), slot) in zip(prepared, transferSlots) {
            let key = AccountKeys.appleTransfer(transferSub)
            switch store.storedMapping(try transfers.value(slot), key: key) {
            case .absent: plans[i] = .writeFile(candidate, transferSub: transferSub)
            case .unreadable: plans[i] = .fail(who: candidate.who, reason: "unreadable transfer file")
            case .present(let file):
                plans[i] =
                    file.uuid == candidate.account.serviceUserID
                    ? .already : .fail(who: candidate.who, reason: "the transfer file names another account")
            }
        }
        return plans.map { $0! }
    }

    /// What recording one transfer came to.
    package enum TransferRecord {
        case done, already
        case skip(String)
        case fail(String)
    }

    /// Records each candidate's transfer: the Apple link's entry (providers.json, If-Match; a lost
    /// race re-reads and re-applies), then the transfer file (create-only; one that names a
    /// deleted or missing account is replaced; one that names a live account is a failure, and the
    /// entry is taken back).
    package func recordTransfers(
        _ items: [(TransferCandidate, String)], team: String, deadline: Deadline
    ) throws(AccountError) -> [TransferRecord] {
        let now = store.environment.now()
        var outcomes = [TransferRecord?](repeating: nil, count: items.count)
        var wrote = [Bool](repeating: false, count: items.count)
        var round = Round()
        var slots: [Int: Round.Slot<S3PutOutcome>] = [:]
        for (i, (candidate, transferSub)) in items.enumerated() {
            var doc = candidate.account.providers
            switch doc.prepare(
                sub: candidate.sub, linkID: candidate.linkID, team: team, transferSub: transferSub, nowMs: now)
            {
            case nil: outcomes[i] = .skip("the identity was unlinked meanwhile")
            case false?: break
            case true?:
                slots[i] = round.put(
                    store.jsonPut(
                        AccountKeys.providers(candidate.account.serviceUserID), doc.json,
                        .ifMatch(candidate.account.providersETag)))
            }
        }
        let puts = store.backend.run(round, deadline: deadline)
        // In the candidates' order, not the dictionary's (which differs from process to process):
        // the lost races are re-read one by one, and a replayed simulation seed must re-read them
        // in the same order.
        for (i, slot) in slots.sorted(by: { $0.key < $1.key }) {
            if case .stored = try puts.value(slot) {
                wrote[i] = true
                continue
            }
            let (candidate, transferSub) = items[i]
            var gone = false
            _ = try store.updateProviders(candidate.account, deadline: deadline) {
                (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                gone = doc.isDeleted
                guard !gone else { return false }
                switch doc.prepare(
                    sub: candidate.sub, linkID: candidate.linkID, team: team, transferSub: transferSub, nowMs: now)
                {
                case nil:
                    gone = true
                    return false
                case let changed?:
                    wrote[i] = changed
                    return changed
                }
            }
            if gone { outcomes[i] = .skip("the identity was unlinked or its account deleted meanwhile") }
        }
        // The files in one round; a file that is there already (another run's, or one naming
        // another account) is looked at one by one.
        var files = Round()
        var fileSlots: [Int: Round.Slot<S3PutOutcome>] = [:]
        for (i, (candidate, transferSub)) in items.enumerated() where outcomes[i] == nil {
            fileSlots[i] = files.put(transferFilePut(candidate, transferSub))
        }
        let filed = store.backend.run(files, deadline: deadline)
        var written: [Int] = []
        for (i, (candidate, transferSub)) in items.enumerated() where outcomes[i] == nil {
            if case .stored = try filed.value(fileSlots[i]!) {
                outcomes[i] = .done
            } else {
                outcomes[i] = try writeTransferFile(candidate, transferSub, team: team, deadline: deadline)
                if case .already = outcomes[i]!, wrote[i] { outcomes[i] = .done }
            }
            if case .done = outcomes[i]! { written.append(i) }
        }
        try takeBackFilesNoLongerPrepared(written.map { items[$0] }, deadline: deadline) { k, why in
            outcomes[written[k]] = .skip(why)
        }
        return outcomes.map { $0! }
    }

    /// A transfer file created after its account's deletion committed, or after an unlink retired
    /// the Apple link it moves (each read the transfer on the link before the file existed), is
    /// taken back at once, as a purchase claim is (`confirmNotDeleted`): the accounts are read
    /// again after the files were written. Left, the unlinked one named an account that no longer
    /// holds the identity, and the user's next account could never be prepared for the same
    /// transfer (simulation seed 2302658: "a person must decide which account it moves").
    private func takeBackFilesNoLongerPrepared(
        _ items: [(TransferCandidate, String)], deadline: Deadline, taken: (Int, String) -> Void
    ) throws(AccountError) {
        var reads = Round()
        let slots = items.map { reads.get(AccountKeys.providers($0.0.account.serviceUserID)) }
        let answers = store.backend.run(reads, deadline: deadline)
        for (k, ((candidate, transferSub), slot)) in zip(items, slots).enumerated() {
            let key = AccountKeys.providers(candidate.account.serviceUserID)
            let doc = try answers.value(slot).map { (o: S3Object) throws(AccountError) in
                try decodeDocument(o.body, key: key, ProvidersDocument.init(json:))
            }
            let why: String
            if let doc, !doc.isDeleted {
                if let (i, _) = doc.link(preparedFor: transferSub), doc.providers[i].linkID == candidate.linkID {
                    continue
                }
                why = "the identity was unlinked meanwhile"
            } else {
                why = "the account was deleted meanwhile"
            }
            let fileKey = AccountKeys.appleTransfer(transferSub)
            if let file = try store.mapping(store.backend.get(fileKey, deadline: deadline), key: fileKey),
                file.uuid == candidate.account.serviceUserID
            {
                _ = try store.backend.delete(fileKey, store.identityDelete(file), deadline: deadline)
            }
            taken(k, why)
        }
    }

    /// The transfer file, create-only. `.already` when it is there naming this account.
    package func writeTransferFile(
        _ candidate: TransferCandidate, _ transferSub: String, team: String, deadline: Deadline
    ) throws(AccountError) -> TransferRecord {
        let uuid = candidate.account.serviceUserID
        let key = AccountKeys.appleTransfer(transferSub)
        let put = transferFilePut(candidate, transferSub)
        for _ in 0..<2 {
            if case .stored = try store.backend.put(put, deadline: deadline) { return .done }
            guard let there = try store.mapping(store.backend.get(key, deadline: deadline), key: key) else { continue }
            if there.uuid == uuid { return .already }
            // A leftover of a deleted (or never completed) account is replaced; a live one is not.
            let docs = try store.readAccount(there.uuid, deadline: deadline)
            let other = try store.account(uuid: there.uuid, profile: docs.profile, providers: docs.providers)
            guard other == nil || other!.providers.isDeleted else {
                _ = try? store.updateProviders(candidate.account, deadline: deadline) {
                    (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                    guard let i = doc.providers.firstIndex(where: { $0.type == .apple && $0.id == candidate.sub })
                    else { return false }
                    let before = doc.providers[i].transfers.count
                    doc.providers[i].transfers.removeAll { $0.sub == transferSub && $0.rekeyedFrom == nil }
                    return doc.providers[i].transfers.count != before
                }
                return .fail("the transfer_sub already names another account (\(there.uuid))")
            }
            _ = try store.backend.delete(key, store.identityDelete(there), deadline: deadline)
        }
        throw .conflict("the transfer file kept changing")
    }

    package func transferFilePut(_ candidate: TransferCandidate, _ transferSub: String) -> S3Put {
        S3Put(
            key: AccountKeys.appleTransfer(transferSub), body: Array(candidate.account.serviceUserID.utf8),
            contentType: "text/plain", condition: .ifNoneMatch)
    }

    package static func who(_ identityKey: String) -> String {
        "apple:" + identityKey.dropFirst(AccountKeys.appleIdentityPrefix.count)
    }
}
