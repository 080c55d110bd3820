import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountPurchases
import AccountSessions
import AccountStore
import PlatformSupport
import TokenVerification

/// The operator's actions (docs/operations.md, contract "Operator actions"): the same flows and
/// documents as the functions, without a refresh token (the operator's own AWS credentials
/// authorise them). Each one goes through the conditional writes the functions use, so the
/// account's invariants hold whatever the app does meanwhile.
extension OperatorFlow {
    /// The account a reference names (contract v4, "Operator actions"): found only when the
    /// account holds something (its profile, its providers.json, or the record of its deletion).
    /// A UUID or a mapping file that names nothing held is not found, like an unknown identity;
    /// `mappedTo` then says which UUID a mapping file named (a break `check` reports).
    package func locate(
        _ reference: AccountReference, deadline: Deadline
    ) throws(AccountError) -> (uuid: String?, mappedTo: String?) {
        let candidate: String
        switch reference {
        case .uuid(let uuid): candidate = uuid
        case .identity, .purchase:
            let key = reference.mappingKey!
            guard let m = try store.mapping(store.backend.get(key, deadline: deadline), key: key) else {
                return (nil, nil)
            }
            candidate = m.uuid
        }
        var round = Round()
        let slots = [AccountKeys.profile(candidate), AccountKeys.providers(candidate), AccountKeys.deletion(candidate)]
            .map { round.get($0) }
        let answers = store.backend.run(round, deadline: deadline)
        for slot in slots where try answers.value(slot) != nil { return (candidate, nil) }
        return (nil, reference.mappingKey == nil ? nil : candidate)
    }

    /// Disables the account (`disable` set) or enables it (`nil`). Answers whether anything
    /// changed. A deleted account is not found: there is nothing left to disable.
    package func setDisabled(
        _ uuid: String, _ disable: AccountDisable?, deadline: Deadline
    ) throws(AccountError) -> Bool {
        var changed = false
        _ = try store.updateProviders(store.loadAccount(uuid, deadline: deadline), deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted else { throw .accountNotFound }
            changed = (doc.disabled == nil) != (disable == nil)
            guard changed else { return false }
            doc.disabled = disable
            return true
        }
        return changed
    }

    /// Signs out every live session of the account, or the one named; answers how many ended.
    /// Works on a disabled account too (abuse: disable, then sign everyone out).
    package func revokeSessions(
        _ uuid: String, only sessionID: String?, reason: String, deadline: Deadline
    ) throws(AccountError) -> Int {
        if let sessionID {
            return try revokeSession(uuid, named: sessionID, reason: reason, deadline: deadline) == .revoked ? 1 : 0
        }
        var count = 0
        for (record, _) in try store.sessionRecords(uuid, deadline: deadline)
        where record.isLive(nowMs: store.environment.now()) {
            if try sessions.revokeSession(uuid, record.sessionID, reason: reason, deadline: deadline) { count += 1 }
        }
        return count
    }

    /// What signing out one named session did.
    package enum SessionRevocation: Sendable, Equatable {
        case revoked
        /// The session is the account's but had already ended (revoked or expired).
        case alreadyEnded
        /// No session of this account has that id (malformed ids included).
        case notFound
    }

    /// Signs out the session `sessionID` of the account, telling an unknown id from an ended one.
    package func revokeSession(
        _ uuid: String, named sessionID: String, reason: String, deadline: Deadline
    ) throws(AccountError) -> SessionRevocation {
        guard try store.session(uuid, named: sessionID, deadline: deadline) != nil else { return .notFound }
        return try sessions.revokeSession(uuid, sessionID, reason: reason, deadline: deadline)
            ? .revoked : .alreadyEnded
    }

    /// Deletes the account exactly as the app's `delete` does after its session check: the
    /// record, the commit, identity files and claims, the purge (the scheduled run finishes it
    /// and runs the second pass). No Apple authorization code, so no Sign in with Apple
    /// revocation: `appleSubject` tells the operator whether the account had an Apple identity.
    package func deleteAccount(
        operatorDeletes uuid: String, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> DeletionOutcome {
        let docs = try store.readAccount(uuid, deadline: deadline)
        let current = try store.account(uuid: uuid, profile: docs.profile, providers: docs.providers)
        if current == nil, docs.providers == nil, docs.profile == nil,
            try store.loadDeletion(uuid, deadline: deadline) == nil
        {
            throw .accountNotFound
        }
        let apple = current?.providers.active(.apple)?.id
        let record = try deletion.beginDeletion(uuid, deadline: deadline)
        let finished = try deletion.finishDeletion(
            uuid, record, account: current, purgeUntil: purgeUntil, deadline: deadline)
        return DeletionOutcome(serviceUserID: uuid, purgeComplete: finished.0.purgeComplete, appleSubject: apple)
    }
}
