import AWSClients
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport
import TokenVerification

/// Sign-in and sign-up (docs/API.md, auth-signin). An existing user costs two rounds: the identity
/// file, then profile, providers, the new session and the credentials together.
extension SignInFlow {
    package enum ExistingSignIn {
        case signedIn(SignInOutcome)
        /// The identity file was a leftover (an unlinked or abandoned link's) and is gone now.
        case stale
        /// The re-key the file was written for was finished by another sign-in meanwhile: the
        /// file is the re-keyed link's own, read again.
        case reread
    }

    package func signIn(
        identity: VerifiedIdentity, intent: SignInIntent, fullName: String?, device: String? = nil,
        deadline: Deadline
    ) throws(AccountError) -> SignInOutcome {
        guard AccountKeys.isValidProviderID(identity.subject) else {
            throw .internalError("provider subject failed validation")
        }
        let key = AccountKeys.identity(identity.provider, identity.subject)
        // A stale identity file is removed once and the sign-in starts over as if there had been none;
        // an app transfer's re-key that meets a file another sign-in just wrote reads it again.
        for _ in 0..<3 {
            let read = try suspensions.readIdentity(key, identity, deadline: deadline)
            var found = read.file
            if let record = read.suspension, record.suspended {
                repairSuspension(record, of: found, identity, deadline: deadline)
                throw .identitySuspended
            }
            if found == nil {
                switch try signInThroughTransfer(
                    identity, key: key, fullName: fullName, device: device, deadline: deadline)
                {
                case .signedIn(let outcome): return outcome
                case .mapped: continue
                case .ignored: break
                }
                guard intent != .signin else { throw .accountNotFound }
                let fresh = IdentityMapping(
                    uuid: store.environment.uuid(), linkID: store.environment.hexID(), object: nil)
                switch try store.backend.put(
                    store.identityPut(key, uuid: fresh.uuid, linkID: fresh.linkID!), deadline: deadline)
                {
                case .stored:
                    return try signUp(fresh, identity, fullName: fullName, device: device, deadline: deadline)
                case .preconditionFailed:
                    // A concurrent sign-up of the same identity won, or this write landed and its
                    // answer was lost (the transport's retry then met our own file).
                    guard let winner = try store.mapping(store.backend.get(key, deadline: deadline), key: key) else {
                        throw .conflict("identity file changed during sign-up")
                    }
                    if winner.uuid == fresh.uuid {
                        return try signUp(winner, identity, fullName: fullName, device: device, deadline: deadline)
                    }
                    found = winner
                }
            }
            switch try signInExisting(
                found!, key: key, identity, intent: intent, fullName: fullName, device: device,
                suspension: read.suspension, deadline: deadline)
            {
            case .signedIn(let outcome): return outcome
            case .stale: if intent == .signin { throw .accountNotFound }
            case .reread: continue
            }
        }
        throw .conflict("the identity kept changing during sign-in")
    }

    /// A new account: markers, profile, providers, the session and the credentials in one round.
    package func signUp(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, fullName: String?, device: String?, deadline: Deadline
    ) throws(AccountError) -> SignInOutcome {
        let now = store.environment.now()
        let (token, record) = newSession(m, identity, device: device, nowMs: now)
        let profile = Profile.new(
            uuid: m.uuid, displayName: Profile.displayName(identity, fullName), email: identity.email,
            provider: identity.provider, nowMs: now)
        let providers = ProvidersDocument(
            primaryProvider: identity.provider,
            providers: [links.newLink(identity, linkID: m.linkID, nowMs: now, primary: true)])
        var round = Round()
        let markers = AccountKeys.markers(m.uuid).map { round.put(store.marker($0)) }
        let profileSlot = round.put(store.jsonPut(AccountKeys.profile(m.uuid), profile.json, .ifNoneMatch))
        let providersSlot = round.put(store.jsonPut(AccountKeys.providers(m.uuid), providers.json, .ifNoneMatch))
        let sessionSlot = round.put(store.sessionPut(record, .ifNoneMatch))
        let credentialsSlot = round.assumeRole(try sessions.assumeRoleRequest(m.uuid))
        let answers = store.backend.run(round, deadline: deadline)
        for slot in markers { _ = try answers.value(slot) }
        let profileOutcome = try answers.value(profileSlot), providersOutcome = try answers.value(providersSlot)
        _ = try answers.value(sessionSlot)  // a fresh 128-bit id: a 412 can only be this write's own lost answer
        let credentials = try answers.value(credentialsSlot)
        let account: Account
        if case .stored(let pe) = profileOutcome, case .stored(let ve) = providersOutcome {
            account = Account(profile: profile, profileETag: pe, providers: providers, providersETag: ve)
        } else {
            let docs = try store.readAccount(m.uuid, deadline: deadline)
            account = try links.complete(
                m, identity, fullName: fullName, profile: docs.profile, providers: docs.providers, deadline: deadline)
        }
        // Read after the account's documents are written (a round of its own, Google sign-ups
        // only): a suspension Google reported meanwhile is seen, whatever the event read.
        let checked = try refusingSession(record, deadline: deadline) { () throws(AccountError) in
            try suspensions.enforceSuspension(
                account, provider: identity.provider, id: identity.subject, deadline: deadline)
        }
        return SignInOutcome(isNewUser: true, account: checked, session: sessions.issued(credentials, token, record))
    }

    /// - Parameter suspension: the identity's suspension record as read before anything was
    ///   written (Google identities; nil: none stored).
    package func signInExisting(
        _ m: IdentityMapping, key: String, _ identity: VerifiedIdentity, intent: SignInIntent, fullName: String?,
        device: String?, suspension: IdentitySuspension? = nil,
        deadline: Deadline
    ) throws(AccountError) -> ExistingSignIn {
        // Whether this sign-in wrote what lists the identity (a half-made account completed):
        // then the suspension record is read again, after that write.
        var wroteListing = false
        if intent == .signup {
            // Nothing is written for ACCOUNT_ALREADY_EXISTS: look before issuing anything.
            let docs = try store.readAccount(m.uuid, deadline: deadline)
            if let existing = try store.account(uuid: m.uuid, profile: docs.profile, providers: docs.providers) {
                guard
                    existing.providers.isDeleted
                        || existing.providers.state(
                            of: identity.provider, id: identity.subject, linkID: m.linkID, transferSub: m.transferSub)
                            == .stale
                else { throw existing.providers.isDisabled ? .accountDisabled : .accountAlreadyExists }
                try store.discard(m, key: key, session: nil, deadline: deadline)
                return .stale
            }
            if try links.isCommittedDeletion(m.uuid, deadline: deadline) {
                try store.discard(m, key: key, session: nil, deadline: deadline)
                return .stale
            }
            _ = try links.complete(
                m, identity, fullName: fullName, profile: docs.profile, providers: docs.providers, deadline: deadline)
            wroteListing = true
        }
        // One round for both documents, the new session and the credentials.
        let now = store.environment.now()
        let (token, record) = newSession(m, identity, device: device, nowMs: now)
        var round = Round()
        let profileSlot = round.get(AccountKeys.profile(m.uuid)),
            providersSlot = round.get(AccountKeys.providers(m.uuid))
        let sessionSlot = round.put(store.sessionPut(record, .ifNoneMatch))
        let credentialsSlot = round.assumeRole(try sessions.assumeRoleRequest(m.uuid))
        let answers = store.backend.run(round, deadline: deadline)
        let p = try answers.value(profileSlot), v = try answers.value(providersSlot)
        _ = try answers.value(sessionSlot)
        if try refuseIfDisabled(v, m, identity, session: record, deadline: deadline) { throw .accountDisabled }
        let credentials = try answers.value(credentialsSlot)
        var acct: Account
        var isNewUser = intent == .signup
        var rekeyed = false
        if let loaded = try store.account(uuid: m.uuid, profile: p, providers: v) {
            acct = loaded
        } else if try links.isCommittedDeletion(m.uuid, deadline: deadline) {
            // Not half-made but deleted (and purged): never bring the old account back, and leave
            // no version of this sign-in's session record under the purged prefix.
            try store.discard(m, key: key, session: nil, deadline: deadline)
            try store.erase(AccountKeys.session(record.serviceUserID, record.sessionID), deadline: deadline)
            return .stale
        } else {
            acct = try links.complete(m, identity, fullName: fullName, profile: p, providers: v, deadline: deadline)
            isNewUser = isNewUser || p == nil
            wroteListing = true
        }
        if acct.providers.isDeleted {
            try store.discard(m, key: key, session: record, deadline: deadline)
            return .stale
        }
        switch acct.providers.state(
            of: identity.provider, id: identity.subject, linkID: m.linkID, transferSub: m.transferSub)
        {
        case .active:
            acct = links.finishRekeysQuietly(acct, deadline: deadline)
            if identity.provider == .google {
                acct = try refusingSession(record, deadline: deadline) { [acct, wroteListing] () throws(AccountError) in
                    wroteListing
                        ? try suspensions.enforceSuspension(
                            acct, provider: identity.provider, id: identity.subject, deadline: deadline)
                        : try suspensions.enforce(
                            suspension, on: acct, provider: identity.provider, id: identity.subject, deadline: deadline)
                }
            }
            acct = refreshLastUsed(acct, identity: identity, deadline: deadline)
        case .rekeying:
            // An app transfer's re-key stopped after its new identity file: finish it, as that
            // sign-in would have (contract v4).
            guard let moved = try links.finishRekey(m, identity, deadline: deadline) else {
                // Another sign-in of the same identity may have finished the re-key since this one
                // read the account, its clean-up removing the transfer the file names: the file is
                // then the re-keyed link's own, not a leftover (simulation seed 2302597: it was
                // deleted, and the sign-in made a new, empty account for the moved user).
                if try links.isRekeyed(m, identity, deadline: deadline) {
                    store.discardSession(record, deadline: deadline)
                    return .reread
                }
                try store.discard(m, key: key, session: record, deadline: deadline)
                return .stale
            }
            acct = moved
            rekeyed = true
        case .pending, .legacyUnlisted:
            // Disabled since this sign-in read the account: refused, its session record erased.
            let completion = try refusingSession(record, deadline: deadline) { [acct] () throws(AccountError) in
                try links.completeLink(acct, m, identity, deadline: deadline)
            }
            guard let completed = completion else {
                try store.discard(m, key: key, session: record, deadline: deadline)
                return .stale
            }
            acct = try refusingSession(record, deadline: deadline) { () throws(AccountError) in
                try suspensions.enforceSuspension(
                    completed, provider: identity.provider, id: identity.subject, deadline: deadline)
            }
        case .stale:
            try store.discard(m, key: key, session: record, deadline: deadline)
            return .stale
        }
        return .signedIn(
            SignInOutcome(
                isNewUser: isNewUser, account: acct, session: sessions.issued(credentials, token, record),
                rekeyed: rekeyed))
    }

    package func newSession(
        _ m: IdentityMapping, _ identity: VerifiedIdentity, device: String?, nowMs: Int64
    ) -> (RefreshToken, SessionRecord) {
        let token = sessions.newToken(m.uuid, sessionID: store.environment.hexID())
        let record = SessionRecord.new(
            token: token,
            identity: SessionIdentity(provider: identity.provider, subject: identity.subject, linkID: m.linkID),
            device: device, nowMs: nowMs, ttlSeconds: store.settings.refreshTokenTTLSeconds)
        return (token, record)
    }

    /// Refreshes the identity's email and `lastUsed` in providers.json, only when something
    /// changed, so a repeated sign-in writes nothing. Best effort: a failure answers the sign-in
    /// with the account as read.
    package func refreshLastUsed(_ account: Account, identity: VerifiedIdentity, deadline: Deadline) -> Account {
        let now = store.environment.now()
        let needsWrite: (ProvidersDocument) -> Bool = { doc in
            guard let i = doc.index(of: identity.provider, id: identity.subject) else { return false }
            let link = doc.providers[i]
            let stale = (ISO8601.parse(link.lastUsed) ?? 0) + SignInFlow.lastUsedGranularityMs < now
            return stale || (identity.email != nil && identity.email != link.email)
        }
        guard needsWrite(account.providers) else { return account }
        do throws(AccountError) {
            return try store.updateProviders(account, deadline: deadline) {
                (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                guard !doc.isDeleted, !doc.isActiveButDisabled, needsWrite(doc),
                    let i = doc.index(of: identity.provider, id: identity.subject)
                else {
                    return false
                }
                doc.providers[i].lastUsed = ISO8601.format(milliseconds: now)
                if let e = identity.email { doc.providers[i].email = e }
                return true
            }
        } catch {
            return account
        }
    }

}
