import AWSClients
import CurlHTTP
import PlatformSupport
import StrictJSON
import TokenVerification

/// The account flows of CONTRACT.md over a batch backend. Every write of an existing JSON object
/// is conditional on the ETag read (`If-Match`), every creation on absence (`If-None-Match: *`),
/// and a lost race re-reads and re-decides, a bounded number of times.
///
/// Ordering (so a crash between writes never leaves an account unusable or doubled):
/// - sign-up: the identity file is the commit point; profile, providers and markers follow and a
///   later sign-in completes whatever is missing, with the same UUID;
/// - link: identity file first (commit), then providers.json; a sign-in with the new provider
///   completes providers.json if the crash fell between;
/// - unlink: providers.json first, then the identity file (commit); if the crash falls between,
///   the identity still maps here and the next sign-in with it re-adds it (the unlink did not happen).
public final class AccountService {
    /// Attempts at a conditional update before answering CONFLICT. Each lost race means another
    /// writer succeeded, so a handful settles all but pathological contention.
    public static let maxConditionalAttempts = 8
    /// `lastUsed` is rewritten only when older than this, so repeated sign-ins cost no write.
    public static let lastUsedGranularityMs: Int64 = 3_600_000

    let backend: AccountBackend
    public let settings: AccountSettings
    let nowMs: () -> Int64

    public init(backend: AccountBackend, settings: AccountSettings, now: @escaping () -> Int64 = Clock.nowMilliseconds) {
        self.backend = backend
        self.settings = settings
        self.nowMs = now
    }

    // MARK: sign-in / sign-up

    public func signIn(identity: VerifiedIdentity, intent: SignInIntent, fullName: String?, deadline: Deadline) throws(AccountError) -> SignInOutcome {
        guard AccountKeys.isValidProviderID(identity.subject) else {
            throw .corruptDocument(key: "-", reason: "provider subject failed validation") // verifier already refuses these
        }
        let identityKey = AccountKeys.identity(identity.provider, identity.subject)
        var uuid: String
        var created = false
        if let existing = try backend.get(identityKey, deadline: deadline) {
            uuid = try parseUUID(existing, key: identityKey)
        } else {
            guard intent != .signin else { throw .accountNotFound }
            let fresh = SecureRandom.uuidV4()
            switch try backend.put(S3Put(key: identityKey, body: Array(fresh.utf8), contentType: "text/plain", condition: .ifNoneMatch, metadata: []), deadline: deadline) {
            case .stored:
                uuid = fresh
                created = true
            case .preconditionFailed:
                // A concurrent sign-up of the same identity won: answer as a sign-in of its account.
                guard let winner = try backend.get(identityKey, deadline: deadline) else { throw .conflict("identity file changed during sign-up") }
                uuid = try parseUUID(winner, key: identityKey)
            }
        }

        let now = nowMs()
        let token = RefreshToken.issue(serviceUserID: uuid, sessionID: RefreshToken.newSessionID())
        let record = SessionRecord.new(token: token, provider: identity.provider, nowMs: now, ttlSeconds: settings.refreshTokenTTLSeconds)
        let sessionPut = jsonPut(AccountKeys.session(uuid, token.sessionID), record.json, .ifNoneMatch)
        let assume = try assumeRole(uuid)

        let account: Account
        let credentials: TemporaryCredentials
        if created {
            let profile = Profile.new(uuid: uuid, displayName: displayName(identity, fullName), email: identity.email, provider: identity.provider, nowMs: now)
            let providers = ProvidersDocument(primaryProvider: identity.provider, providers: [newLink(identity, nowMs: now, primary: true)])
            var ops = AccountKeys.markers(uuid).map { BackendOperation.put(marker($0)) }
            ops += [.put(jsonPut(AccountKeys.profile(uuid), profile.json, .ifNoneMatch)),
                    .put(jsonPut(AccountKeys.providers(uuid), providers.json, .ifNoneMatch)), .put(sessionPut), .assumeRole(assume)]
            let results = backend.run(ops, deadline: deadline)
            for r in results.dropLast(5) { _ = try AccountError.unwrapStored(r) }
            let profileOutcome = try AccountError.unwrapStored(results[results.count - 4])
            let providersOutcome = try AccountError.unwrapStored(results[results.count - 3])
            try requireStored(AccountError.unwrapStored(results[results.count - 2]))
            credentials = try AccountError.unwrapCredentials(results[results.count - 1])
            if case .stored(let pe) = profileOutcome, case .stored(let ve) = providersOutcome {
                account = Account(profile: profile, profileETag: pe, providers: providers, providersETag: ve)
            } else {
                account = try loadOrComplete(uuid: uuid, identity: identity, fullName: fullName, deadline: deadline)
            }
            return SignInOutcome(isNewUser: true, account: account, session: issued(credentials, token, record))
        }

        if intent == .signup {
            // Nothing is written for ACCOUNT_ALREADY_EXISTS: look before issuing anything.
            let docs = backend.run([.get(key: AccountKeys.profile(uuid)), .get(key: AccountKeys.providers(uuid))], deadline: deadline)
            let profile = try AccountError.unwrapObject(docs[0]), providers = try AccountError.unwrapObject(docs[1])
            if profile != nil && providers != nil { throw .accountAlreadyExists }
            var acct = try complete(uuid: uuid, identity: identity, fullName: fullName, profile: profile, providers: providers, deadline: deadline)
            let results = backend.run([.put(sessionPut), .assumeRole(assume)], deadline: deadline)
            try requireStored(AccountError.unwrapStored(results[0]))
            credentials = try AccountError.unwrapCredentials(results[1])
            acct = try reconcile(acct, identity: identity, deadline: deadline)
            return SignInOutcome(isNewUser: true, account: acct, session: issued(credentials, token, record))
        }

        // Existing account: one round for both documents, the new session and the credentials.
        let results = backend.run([.get(key: AccountKeys.profile(uuid)), .get(key: AccountKeys.providers(uuid)), .put(sessionPut), .assumeRole(assume)], deadline: deadline)
        let profileObject = try AccountError.unwrapObject(results[0])
        let providersObject = try AccountError.unwrapObject(results[1])
        try requireStored(AccountError.unwrapStored(results[2]))
        credentials = try AccountError.unwrapCredentials(results[3])
        var acct: Account
        var repaired = false
        if let p = profileObject, let v = providersObject {
            acct = try decodeAccount(uuid: uuid, profile: p, providers: v)
        } else {
            acct = try complete(uuid: uuid, identity: identity, fullName: fullName, profile: profileObject, providers: providersObject, deadline: deadline)
            repaired = true
        }
        acct = try reconcile(acct, identity: identity, deadline: deadline)
        return SignInOutcome(isNewUser: repaired && profileObject == nil, account: acct, session: issued(credentials, token, record))
    }

    /// Display name: the event's fullName, else the token's name, else the email's local part.
    func displayName(_ identity: VerifiedIdentity, _ fullName: String?) -> String {
        if let n = fullName?.trimmingSpaces(), !n.isEmpty { return n }
        if let n = identity.name?.trimmingSpaces(), !n.isEmpty { return n }
        if let e = identity.email, let at = e.firstIndex(of: "@"), at > e.startIndex { return String(e[..<at]) }
        return "User"
    }

    func newLink(_ identity: VerifiedIdentity, nowMs: Int64, primary: Bool) -> ProviderLink {
        let now = ISO8601.format(milliseconds: nowMs)
        return ProviderLink(type: identity.provider, id: identity.subject, email: identity.email, displayName: identity.name,
                            linkedAt: now, lastUsed: now, isPrimary: primary)
    }

    /// Writes whatever of a half-made account is missing (markers, profile, providers), each
    /// only-if-absent, and returns the account as stored.
    func complete(uuid: String, identity: VerifiedIdentity, fullName: String?, profile: S3Object?, providers: S3Object?, deadline: Deadline) throws(AccountError) -> Account {
        let now = nowMs()
        var ops = AccountKeys.markers(uuid).map { BackendOperation.put(marker($0)) }
        if profile == nil {
            let p = Profile.new(uuid: uuid, displayName: displayName(identity, fullName), email: identity.email, provider: identity.provider, nowMs: now)
            ops.append(.put(jsonPut(AccountKeys.profile(uuid), p.json, .ifNoneMatch)))
        }
        if providers == nil {
            let v = ProvidersDocument(primaryProvider: identity.provider, providers: [newLink(identity, nowMs: now, primary: true)])
            ops.append(.put(jsonPut(AccountKeys.providers(uuid), v.json, .ifNoneMatch)))
        }
        for r in backend.run(ops, deadline: deadline) { _ = try AccountError.unwrapStored(r) } // 412: someone else completed it
        return try load(uuid: uuid, deadline: deadline)
    }

    func loadOrComplete(uuid: String, identity: VerifiedIdentity, fullName: String?, deadline: Deadline) throws(AccountError) -> Account {
        let docs = backend.run([.get(key: AccountKeys.profile(uuid)), .get(key: AccountKeys.providers(uuid))], deadline: deadline)
        return try complete(uuid: uuid, identity: identity, fullName: fullName, profile: AccountError.unwrapObject(docs[0]), providers: AccountError.unwrapObject(docs[1]), deadline: deadline)
    }

    /// Reads both documents; a missing one here means the account is not usable yet.
    func load(uuid: String, deadline: Deadline) throws(AccountError) -> Account {
        let docs = backend.run([.get(key: AccountKeys.profile(uuid)), .get(key: AccountKeys.providers(uuid))], deadline: deadline)
        guard let p = try AccountError.unwrapObject(docs[0]), let v = try AccountError.unwrapObject(docs[1]) else {
            throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
        }
        return try decodeAccount(uuid: uuid, profile: p, providers: v)
    }

    /// The account from its two stored documents.
    func decodeAccount(uuid: String, profile p: S3Object, providers v: S3Object) throws(AccountError) -> Account {
        Account(profile: try decodeDocument(p.body, key: AccountKeys.profile(uuid), Profile.init(json:)), profileETag: p.etag,
                providers: try decodeDocument(v.body, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:)), providersETag: v.etag)
    }

    /// After a sign-in: make providers.json list this identity (completing a half-made link),
    /// and refresh its email and `lastUsed` — only when something changed, so a repeated sign-in
    /// writes nothing. The refresh is best effort; the completion is not.
    func reconcile(_ account: Account, identity: VerifiedIdentity, deadline: Deadline) throws(AccountError) -> Account {
        let now = nowMs()
        let listed = account.providers.index(of: identity.provider, id: identity.subject) != nil
        let needsWrite: (ProvidersDocument) -> Bool = { doc in
            guard let i = doc.index(of: identity.provider, id: identity.subject) else { return true }
            let link = doc.providers[i]
            let stale = (ISO8601.parse(link.lastUsed) ?? 0) + AccountService.lastUsedGranularityMs < now
            return stale || (identity.email != nil && identity.email != link.email)
        }
        guard needsWrite(account.providers) else { return account }
        do throws(AccountError) {
            return try updateProviders(account, deadline: deadline) { (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                guard needsWrite(doc) else { return false }
                if let i = doc.index(of: identity.provider, id: identity.subject) {
                    doc.providers[i].lastUsed = ISO8601.format(milliseconds: now)
                    if let e = identity.email { doc.providers[i].email = e }
                } else {
                    // The identity file maps here (it is the commit point), so the link stands.
                    doc.providers.removeAll { $0.type == identity.provider }
                    doc.providers.append(self.newLink(identity, nowMs: now, primary: false))
                    doc.normalizePrimary()
                }
                return true
            }
        } catch {
            if listed { return account } // only lastUsed/email were at stake
            throw error
        }
    }

    // MARK: refresh and sign-out

    public func refresh(token text: String, deadline: Deadline) throws(AccountError) -> RefreshOutcome {
        let token = try parseToken(text)
        let key = AccountKeys.session(token.serviceUserID, token.sessionID)
        for _ in 0..<AccountService.maxConditionalAttempts {
            let (record, etag) = try loadSession(token, deadline: deadline)
            let now = nowMs()
            let decision = record.decide(tokenHash: token.hash, nowMs: now, graceSeconds: settings.refreshReuseGraceSeconds)
            switch decision {
            case .rotate, .graceRotate:
                let next = RefreshToken.issue(serviceUserID: token.serviceUserID, sessionID: token.sessionID)
                let updated = record.rotated(by: decision, newToken: next, nowMs: now)
                let uuid = token.serviceUserID
                let results = backend.run([.put(jsonPut(key, updated.json, .ifMatch(etag))), .get(key: AccountKeys.profile(uuid)),
                                           .get(key: AccountKeys.providers(uuid)), .assumeRole(try assumeRole(uuid))], deadline: deadline)
                guard case .stored = try AccountError.unwrapStored(results[0]) else {
                    pauseAfterLostRace()
                    continue // another refresh of this session won: re-read and decide again
                }
                let credentials = try AccountError.unwrapCredentials(results[3])
                guard let p = try AccountError.unwrapObject(results[1]), let v = try AccountError.unwrapObject(results[2]) else {
                    throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
                }
                let account = try decodeAccount(uuid: uuid, profile: p, providers: v)
                return RefreshOutcome(account: account, session: issued(credentials, next, updated))
            case .reuse:
                try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
                throw .sessionInvalid(reason: "reuse")
            case .superseded, .expired, .revoked:
                throw .sessionInvalid(reason: "\(decision)")
            }
        }
        throw .conflict("the session kept changing during refresh")
    }

    /// Revokes the session the token belongs to. Idempotent for a session already signed out
    /// or expired; a token the session never issued is refused (and, being reuse, revokes it).
    public func signOut(token text: String, deadline: Deadline) throws(AccountError) {
        let token = try parseToken(text)
        for _ in 0..<AccountService.maxConditionalAttempts {
            let (record, etag) = try loadSession(token, deadline: deadline)
            switch record.decide(tokenHash: token.hash, nowMs: nowMs(), graceSeconds: settings.refreshReuseGraceSeconds) {
            case .revoked, .expired:
                return
            case .rotate, .graceRotate:
                let put = jsonPut(AccountKeys.session(token.serviceUserID, token.sessionID), record.revoked(reason: "signed out", nowMs: nowMs()).json, .ifMatch(etag))
                if case .stored = try backend.put(put, deadline: deadline) { return }
                pauseAfterLostRace()
            case .reuse:
                try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
                throw .sessionInvalid(reason: "reuse")
            case .superseded:
                throw .sessionInvalid(reason: "superseded")
            }
        }
        throw .conflict("the session kept changing during sign-out")
    }

    func revoke(_ record: SessionRecord, etag: String, token: RefreshToken, reason: String, deadline: Deadline) throws(AccountError) {
        var record = record, etag = etag
        let key = AccountKeys.session(token.serviceUserID, token.sessionID)
        for _ in 0..<AccountService.maxConditionalAttempts {
            if record.isRevoked { return }
            if case .stored = try backend.put(jsonPut(key, record.revoked(reason: reason, nowMs: nowMs()).json, .ifMatch(etag)), deadline: deadline) { return }
            (record, etag) = try loadSession(token, deadline: deadline)
        }
        throw .conflict("could not revoke the session")
    }

    func parseToken(_ text: String) throws(AccountError) -> RefreshToken {
        guard let token = RefreshToken.parse(text), AccountKeys.isCanonicalUUID(token.serviceUserID) else {
            throw .sessionInvalid(reason: "malformed")
        }
        return token
    }

    func loadSession(_ token: RefreshToken, deadline: Deadline) throws(AccountError) -> (SessionRecord, String) {
        let key = AccountKeys.session(token.serviceUserID, token.sessionID)
        guard let object = try backend.get(key, deadline: deadline) else { throw .sessionInvalid(reason: "unknown") }
        let record = try decodeDocument(object.body, key: key, SessionRecord.init(json:))
        guard record.serviceUserID == token.serviceUserID, record.sessionID == token.sessionID else {
            throw .corruptDocument(key: key, reason: "session names another account")
        }
        return (record, object.etag)
    }

    /// A session that may link or unlink: the token is its current one (or the just-rotated one
    /// within the grace) and its original sign-in is recent. The token is not rotated.
    func recentSession(_ text: String, deadline: Deadline) throws(AccountError) -> SessionRecord {
        let token = try parseToken(text)
        let (record, etag) = try loadSession(token, deadline: deadline)
        let now = nowMs()
        switch record.decide(tokenHash: token.hash, nowMs: now, graceSeconds: settings.refreshReuseGraceSeconds) {
        case .rotate, .graceRotate: break
        case .reuse:
            try revoke(record, etag: etag, token: token, reason: "refresh token reuse", deadline: deadline)
            throw .sessionInvalid(reason: "reuse")
        case let other: throw .sessionInvalid(reason: "\(other)")
        }
        guard now - record.signInAtMs <= settings.recentAuthSeconds * 1000 else { throw .reauthenticationRequired }
        return record
    }

    // MARK: link and unlink

    public func link(token: String, identity: VerifiedIdentity, deadline: Deadline) throws(AccountError) -> LinkOutcome {
        let session = try recentSession(token, deadline: deadline)
        let uuid = session.serviceUserID
        let identityKey = AccountKeys.identity(identity.provider, identity.subject)
        let first = backend.run([.get(key: identityKey), .get(key: AccountKeys.profile(uuid)), .get(key: AccountKeys.providers(uuid))], deadline: deadline)
        var owner = try AccountError.unwrapObject(first[0]).map { (o: S3Object) throws(AccountError) in try parseUUID(o, key: identityKey) }
        guard let p = try AccountError.unwrapObject(first[1]), let v = try AccountError.unwrapObject(first[2]) else {
            throw .sessionInvalid(reason: "the account is incomplete; sign in again to complete it")
        }
        var account = try decodeAccount(uuid: uuid, profile: p, providers: v)
        if owner == nil {
            // One identity per provider type: unlink takes a type, so two would be ambiguous.
            if account.providers.providers.contains(where: { $0.type == identity.provider && $0.id != identity.subject }) {
                throw .providerAlreadyLinked
            }
            switch try backend.put(S3Put(key: identityKey, body: Array(uuid.utf8), contentType: "text/plain", condition: .ifNoneMatch, metadata: []), deadline: deadline) {
            case .stored: owner = uuid
            case .preconditionFailed:
                guard let o = try backend.get(identityKey, deadline: deadline) else { throw .conflict("identity file changed during link") }
                owner = try parseUUID(o, key: identityKey)
                guard owner == uuid else { throw .providerAlreadyLinked }
            }
            account = try addLink(account, identity: identity, deadline: deadline)
            return LinkOutcome(status: .linked, account: account)
        }
        guard owner == uuid else { throw .providerAlreadyLinked }
        if account.providers.index(of: identity.provider, id: identity.subject) == nil {
            account = try addLink(account, identity: identity, deadline: deadline) // completes a half-made link
        }
        return LinkOutcome(status: .alreadyLinked, account: account)
    }

    func addLink(_ account: Account, identity: VerifiedIdentity, deadline: Deadline) throws(AccountError) -> Account {
        let now = nowMs()
        return try updateProviders(account, deadline: deadline) { (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard doc.index(of: identity.provider, id: identity.subject) == nil else { return false }
            doc.providers.removeAll { $0.type == identity.provider }
            doc.providers.append(self.newLink(identity, nowMs: now, primary: false))
            doc.normalizePrimary()
            return true
        }
    }

    public func unlink(token: String, provider: IdentityProvider, deadline: Deadline) throws(AccountError) -> LinkOutcome {
        let session = try recentSession(token, deadline: deadline)
        let uuid = session.serviceUserID
        var account = try load(uuid: uuid, deadline: deadline)
        var removed: ProviderLink?
        account = try updateProviders(account, deadline: deadline) { (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard let i = doc.providers.firstIndex(where: { $0.type == provider }) else { throw .providerNotLinked }
            guard doc.providers.count > 1 else { throw .lastProvider }
            removed = doc.providers.remove(at: i)
            doc.normalizePrimary()
            return true
        }
        if account.profile.primaryProvider != account.providers.primaryProvider {
            account = try updateProfile(account, deadline: deadline) { (p: inout Profile) -> Bool in
                guard p.primaryProvider != account.providers.primaryProvider else { return false }
                p.primaryProvider = account.providers.primaryProvider
                return true
            }
        }
        if let removed {
            let key = AccountKeys.identity(removed.type, removed.id)
            if let object = try backend.get(key, deadline: deadline), (try? parseUUID(object, key: key)) == uuid {
                try backend.delete(key, deadline: deadline)
            }
        }
        return LinkOutcome(status: .unlinked, account: account)
    }

    // MARK: conditional updates

    /// Applies `mutate` to providers.json and writes it with `If-Match`; a lost race re-reads and
    /// re-applies (so checks inside `mutate` see the winner's state). `mutate` returns false when
    /// nothing needs writing.
    func updateProviders(_ account: Account, deadline: Deadline, _ mutate: (inout ProvidersDocument) throws(AccountError) -> Bool) throws(AccountError) -> Account {
        var account = account
        (account.providers, account.providersETag) = try conditionalUpdate(
            key: AccountKeys.providers(account.profile.serviceUserID), account.providers, etag: account.providersETag,
            decode: ProvidersDocument.init(json:), encode: \.json, deadline: deadline, mutate)
        return account
    }

    func updateProfile(_ account: Account, deadline: Deadline, _ mutate: (inout Profile) -> Bool) throws(AccountError) -> Account {
        var account = account
        let now = ISO8601.format(milliseconds: nowMs())
        (account.profile, account.profileETag) = try conditionalUpdate(
            key: AccountKeys.profile(account.profile.serviceUserID), account.profile, etag: account.profileETag,
            decode: Profile.init(json:), encode: \.json, deadline: deadline) { (p: inout Profile) throws(AccountError) -> Bool in
                guard mutate(&p) else { return false }
                p.lastUpdated = now
                return true
            }
        return account
    }

    /// The read-modify-write loop behind every update of an existing JSON document: write with
    /// `If-Match` on the ETag read; on a lost race pause, re-read, re-apply; at most
    /// `maxConditionalAttempts` times, then CONFLICT.
    func conditionalUpdate<Document>(key: String, _ document: Document, etag: String, decode: (JSONValue) -> Document?, encode: (Document) -> JSONValue,
                                     deadline: Deadline, _ mutate: (inout Document) throws(AccountError) -> Bool) throws(AccountError) -> (Document, String) {
        var current = document, currentETag = etag
        for attempt in 0..<AccountService.maxConditionalAttempts {
            if attempt > 0 {
                pauseAfterLostRace()
                guard let fresh = try backend.get(key, deadline: deadline) else { throw .conflict("\(key.split(separator: "/").last ?? "") disappeared") }
                current = try decodeDocument(fresh.body, key: key, decode)
                currentETag = fresh.etag
            }
            var changed = current
            guard try mutate(&changed) else { return (current, currentETag) }
            if case .stored(let newETag) = try backend.put(jsonPut(key, encode(changed), .ifMatch(currentETag)), deadline: deadline) {
                return (changed, newETag)
            }
        }
        throw .conflict("\(key.split(separator: "/").last ?? "") kept changing")
    }

    /// A short random pause after a lost conditional write, so racing writers spread out.
    func pauseAfterLostRace() { Clock.sleep(milliseconds: 5 + Int(SecureRandom.uniform(25))) }

    // MARK: helpers

    func parseUUID(_ object: S3Object, key: String) throws(AccountError) -> String {
        let text = String(decoding: object.body, as: UTF8.self)
        guard AccountKeys.isCanonicalUUID(text) else { throw .corruptDocument(key: key, reason: "identity file does not hold a UUID") }
        return text
    }

    func assumeRole(_ uuid: String) throws(AccountError) -> AssumeRoleRequest {
        let policy: String
        do throws(CredentialsPolicy.PolicyError) {
            policy = try CredentialsPolicy.document(bucket: settings.bucket, uuid: uuid, region: settings.region)
        } catch {
            throw .corruptDocument(key: "-", reason: "session policy: \(error)")
        }
        return AssumeRoleRequest(roleARN: settings.userRoleARN, sessionName: "user-\(uuid)", durationSeconds: settings.credentialsDurationSeconds,
                                 policy: policy, sourceIdentity: nil, tags: [])
    }

    func issued(_ credentials: TemporaryCredentials, _ token: RefreshToken, _ record: SessionRecord) -> IssuedSession {
        IssuedSession(credentials: credentials, refreshToken: token, refreshTokenExpiresAtMs: record.expiresAtMs,
                      storagePrefix: AccountKeys.userPrefix(token.serviceUserID))
    }

    func requireStored(_ outcome: S3PutOutcome) throws(AccountError) {
        guard case .stored = outcome else { throw .conflict("a new session id collided") }
    }

    func jsonPut(_ key: String, _ value: JSONValue, _ condition: S3PutCondition) -> S3Put {
        S3Put(key: key, body: value.serialized(), contentType: "application/json", condition: condition, metadata: [])
    }

    func marker(_ key: String) -> S3Put {
        S3Put(key: key, body: [], contentType: "application/x-directory", condition: .none, metadata: [])
    }
}

extension String {
    /// Without ASCII spaces, tabs and line breaks at either end (ASCII only: Unicode properties
    /// would link the stdlib's property tables into the bootstrap).
    func trimmingSpaces() -> String {
        func space(_ b: UInt8) -> Bool { b == 32 || (9...13).contains(b) }
        var bytes = Substring(self).utf8[...]
        while let f = bytes.first, space(f) { bytes = bytes.dropFirst() }
        while let l = bytes.last, space(l) { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
