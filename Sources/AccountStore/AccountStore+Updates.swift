import AWSClients
import AccountModel
import PlatformSupport
import StrictJSON

/// The read-modify-write engine behind every update of an existing document, and the documents'
/// loading. (Identity files: `AccountStore+IdentityFiles.swift`.)
extension AccountStore {
    /// Applies `mutate` to providers.json and writes it with `If-Match`; a lost race re-reads and
    /// re-applies (so checks inside `mutate` see the winner's state). `mutate` returns false when
    /// nothing needs writing.
    package func updateProviders(
        _ account: Account, deadline: Deadline, _ mutate: (inout ProvidersDocument) throws(AccountError) -> Bool
    ) throws(AccountError) -> Account {
        var account = account
        (account.providers, account.providersETag) = try conditionalUpdate(
            key: AccountKeys.providers(account.serviceUserID), account.providers, etag: account.providersETag,
            decode: ProvidersDocument.init(json:), encode: \.json, deadline: deadline, mutate)
        return account
    }

    package func updateProfile(
        _ account: Account, deadline: Deadline, _ mutate: (inout Profile) -> Bool
    ) throws(AccountError) -> Account {
        var account = account
        let now = ISO8601.format(milliseconds: environment.now())
        (account.profile, account.profileETag) = try conditionalUpdate(
            key: AccountKeys.profile(account.serviceUserID), account.profile, etag: account.profileETag,
            decode: Profile.init(json:), encode: \.json, deadline: deadline
        ) { (p: inout Profile) throws(AccountError) -> Bool in
            guard mutate(&p) else { return false }
            p.lastUpdated = now
            return true
        }
        return account
    }

    /// Write with `If-Match` on the ETag read; on a lost race pause, re-read, re-apply; at most
    /// `maxConditionalAttempts` times, then CONFLICT. A write whose answer was lost (the
    /// transport's retry then sees 412) is re-read like any lost race, so `mutate` must recognise
    /// its own change as done.
    package func conditionalUpdate<Document>(
        key: String, _ document: Document, etag: String, decode: (JSONValue) -> Document?,
        encode: (Document) -> JSONValue,
        deadline: Deadline, _ mutate: (inout Document) throws(AccountError) -> Bool
    ) throws(AccountError) -> (Document, String) {
        var current = document, currentETag = etag
        for attempt in 0..<AccountStore.maxConditionalAttempts {
            if attempt > 0 {
                pauseAfterLostRace()
                guard let fresh = try backend.get(key, deadline: deadline) else {
                    throw .conflict("\(key.split(separator: "/").last ?? "") disappeared")
                }
                current = try decodeDocument(fresh.body, key: key, decode)
                currentETag = fresh.etag
            }
            var changed = current
            guard try mutate(&changed) else { return (current, currentETag) }
            if case .stored(let newETag) = try backend.put(
                jsonPut(key, encode(changed), .ifMatch(currentETag)), deadline: deadline)
            {
                return (changed, newETag)
            }
        }
        throw .conflict("\(key.split(separator: "/").last ?? "") kept changing")
    }

    /// A short random pause after a lost conditional write, so racing writers spread out.
    package func pauseAfterLostRace() { environment.pause(5 + environment.uniform(25)) }

    /// The account from its two stored documents (nil when either is missing: not complete).
    package func account(uuid: String, profile p: S3Object?, providers v: S3Object?) throws(AccountError) -> Account? {
        guard let p, let v else { return nil }
        return Account(
            profile: try decodeDocument(p.body, key: AccountKeys.profile(uuid), Profile.init(json:)),
            profileETag: p.etag,
            providers: try decodeDocument(v.body, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:)),
            providersETag: v.etag)
    }

    /// Reads both documents in one round.
    package func readAccount(
        _ uuid: String, deadline: Deadline
    ) throws(AccountError) -> (profile: S3Object?, providers: S3Object?) {
        var round = Round()
        let profile = round.get(AccountKeys.profile(uuid))
        let providers = round.get(AccountKeys.providers(uuid))
        let answers = backend.run(round, deadline: deadline)
        return (try answers.value(profile), try answers.value(providers))
    }
}
