import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import TokenVerification

/// Google's suspension of a Google identity (`IdentitySuspension`): the record keyed by the
/// identity, and its copy on the holding account's provider entry, kept in agreement by whoever
/// meets them (docs/decisions/accounts-and-sessions.md, "Where a Google identity's suspension
/// lives"). The order that closes every race with Google's event:
/// - the event writes the record first, then reads the identity file, then applies the state to
///   the entry it finds (a conditional write: from then on no session of it works);
/// - whatever makes the identity usable on an account (sign-up, a link's activation) reads the
///   record after its own commit and applies it: if the event's read of the identity file came
///   before that commit, the record was already written, so this read sees it.
extension SuspensionFlow {
    /// The stored suspension of `provider` identity `id` (only Google's are ever written).
    package func suspension(
        _ object: S3Object?, _ provider: IdentityProvider, _ id: String
    ) throws(AccountError) -> IdentitySuspension? {
        guard let object else { return nil }
        return try decodeDocument(
            object.body, key: AccountKeys.suspension(provider, id), IdentitySuspension.init(json:))
    }

    /// The suspension records of the Google identities `providers` lists, by `sub`.
    package func suspensionRecords(
        of providers: ProvidersDocument?, deadline: Deadline
    ) throws(AccountError) -> [String: IdentitySuspension] {
        let subs = (providers?.providers ?? []).filter { $0.type == .google }.map(\.id)
        var out: [String: IdentitySuspension] = [:]
        for (sub, (_, object)) in zip(
            subs, try store.getAll(subs.map { AccountKeys.suspension(.google, $0) }, deadline: deadline))
        {
            if let state = try suspension(object, .google, sub) { out[sub] = state }
        }
        return out
    }

    /// Stores `state` as the identity's record unless the stored one is as new or newer;
    /// answers the record as it stands afterwards (the newest state, whoever wrote it) and whether
    /// it is this call's (a write whose answer was lost is recognised by re-reading it).
    package func recordSuspension(
        _ state: IdentitySuspension, provider: IdentityProvider, id: String, deadline: Deadline
    ) throws(AccountError) -> (newest: IdentitySuspension, wrote: Bool) {
        let key = AccountKeys.suspension(provider, id)
        for _ in 0..<AccountStore.maxConditionalAttempts {
            let object = try store.backend.get(key, deadline: deadline)
            let stored = try suspension(object, provider, id)
            if let stored, !state.supersedes(stored) { return (stored, stored == state) }
            let condition: S3PutCondition = object.map { .ifMatch($0.etag) } ?? .ifNoneMatch
            if case .stored = try store.backend.put(store.jsonPut(key, state.recordJSON, condition), deadline: deadline)
            {
                return (state, true)
            }
            store.pauseAfterLostRace()  // a concurrent event wrote it (or this write's answer was lost): re-read
        }
        throw .conflict("the suspension record kept changing")
    }

    /// Applies `state` to the account's entry for `provider` identity `id` when it is newer than
    /// what the entry holds; a suspension also ends every session signed in with it so far, for
    /// good (they stay ended after the suspension is lifted). Nothing changes for an identity the
    /// account does not list (any more).
    /// - Parameter endingSessions: also end the identity's sessions so far (Google's hijacking
    ///   event does, even when a newer `account-enabled` already lifted the suspension it reports:
    ///   sessions from the time of the hijacking are not trusted).
    package func applySuspension(
        _ state: IdentitySuspension, to account: Account, provider: IdentityProvider, id: String,
        endingSessions: Bool = false, deadline: Deadline
    ) throws(AccountError) -> Account {
        try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted, let i = doc.index(of: provider, id: id) else { return false }
            let now = store.environment.now()
            var changed = false
            if state.supersedes(doc.providers[i].suspension), !state.agrees(with: doc.providers[i].suspension) {
                doc.providers[i].suspension = state
                changed = true
            }
            if endingSessions || (changed && state.suspended), (doc.providers[i].sessionsNotBeforeMs ?? 0) < now {
                doc.providers[i].sessionsNotBeforeMs = now
                changed = true
            }
            return changed
        }
    }

    /// Ends every session signed in with `provider` identity `id` on the account, however many:
    /// one conditional write of the entry's `sessionsNotBefore` (the commit point). False when the
    /// account does not list the identity.
    package func endSessions(
        of account: Account, provider: IdentityProvider, id: String, deadline: Deadline
    ) throws(AccountError) -> Bool {
        let now = store.environment.now()
        var listed = false
        _ = try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            listed = false
            guard !doc.isDeleted, let i = doc.index(of: provider, id: id) else { return false }
            listed = true
            guard (doc.providers[i].sessionsNotBeforeMs ?? 0) < now else { return false }
            doc.providers[i].sessionsNotBeforeMs = now
            return true
        }
        return listed
    }

    /// After a commit that makes a Google identity usable on `account` (a sign-up, a link's
    /// activation): reads the identity's record and applies it to the entry (`enforce`).
    package func enforceSuspension(
        _ account: Account, provider: IdentityProvider, id: String, deadline: Deadline
    ) throws(AccountError) -> Account {
        let synced = try syncSuspension(account, provider: provider, id: id, deadline: deadline)
        if synced.providers.isSuspended(provider, id: id) { throw .identitySuspended }
        return synced
    }

    /// Reads the identity's record (Google identities only) and applies it to its entry on
    /// `account`; the account as it stands afterwards. For the repairs that list an identity
    /// (`authctl check --repair`), which refuse nobody.
    package func syncSuspension(
        _ account: Account, provider: IdentityProvider, id: String, deadline: Deadline
    ) throws(AccountError) -> Account {
        guard provider == .google else { return account }
        let record = try suspension(
            store.backend.get(AccountKeys.suspension(provider, id), deadline: deadline), provider, id)
        guard let record else { return account }
        return try applySuspension(record, to: account, provider: provider, id: id, deadline: deadline)
    }

    /// Applies the identity's `record` to its entry on `account`; throws IDENTITY_SUSPENDED when
    /// the entry says the identity is suspended afterwards.
    package func enforce(
        _ record: IdentitySuspension?, on account: Account, provider: IdentityProvider, id: String,
        deadline: Deadline
    ) throws(AccountError) -> Account {
        var account = account
        if let record {
            account = try applySuspension(record, to: account, provider: provider, id: id, deadline: deadline)
        }
        if account.providers.isSuspended(provider, id: id) { throw .identitySuspended }
        return account
    }
}

/// What sign-in reads first: the identity file and, for a Google identity, its suspension record.
package struct IdentityRead {
    package var file: IdentityMapping?
    package var suspension: IdentitySuspension?
}

/// Sign-in's side of the suspension: refused before anything is written when the record says
/// so, and again in the round that commits the session when the entry says so.
extension SuspensionFlow {
    package func suspensionKey(_ identity: VerifiedIdentity) -> String {
        AccountKeys.suspension(identity.provider, identity.subject)
    }

    /// The identity file and (Google) the suspension record, in one round.
    package func readIdentity(
        _ key: String, _ identity: VerifiedIdentity, deadline: Deadline
    ) throws(AccountError) -> IdentityRead {
        var round = Round()
        let fileSlot = round.get(key)
        let recordSlot = identity.provider == .google ? round.get(suspensionKey(identity)) : nil
        let answers = store.backend.run(round, deadline: deadline)
        var read = IdentityRead(file: try store.mapping(answers.value(fileSlot), key: key))
        if let recordSlot {
            read.suspension = try suspension(answers.value(recordSlot), identity.provider, identity.subject)
        }
        return read
    }
}
