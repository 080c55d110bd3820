import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

/// The store's read-modify-write engine and identity files, under a writer racing each write.
@Suite struct ConditionalUpdateTests {
    /// A concurrent writer changes providers.json just before each of this update's first `n` PUTs.
    static func racing(_ f: AccountFixture, _ uuid: String, times n: Int) -> () -> Int {
        var raced = 0
        f.backend.intercept = { call, s3 in
            guard case .s3Put(let put) = call, put.key == AccountKeys.providers(uuid), raced < n else {
                return .proceed
            }
            raced += 1
            var doc = s3.json(put.key).flatMap(ProvidersDocument.init(json:))!
            doc.providers[0].lastUsed = "2027-01-0\(raced)T00:00:00Z"
            _ = s3.apply(.s3Put(S3Put(key: put.key, body: doc.json.serialized(), contentType: "application/json")))
            return .proceed
        }
        return { raced }
    }

    @Test func aLostRaceRereadsAndReappliesOverTheWinnersDocument() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        let raced = Self.racing(f, uuid, times: 2)
        var seen: [String] = []
        let account = try f.service.store.updateProviders(up.account, deadline: .none) { doc in
            seen.append(doc.providers[0].lastUsed)
            doc.providers[0].email = "new@example.com"
            return true
        }
        #expect(raced() == 2 && seen.count == 3, "applied again after each lost race")
        #expect(seen.last == "2027-01-02T00:00:00Z", "the last attempt saw the winner's write")
        let stored = try #require(f.providers(uuid))
        #expect(
            stored.providers[0].email == "new@example.com" && stored.providers[0].lastUsed == "2027-01-02T00:00:00Z")
        #expect(account.providers == stored, "the answer is what was stored")
    }

    @Test func aDocumentThatKeepsChangingIsAConflictAndTheWinnerStands() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        _ = Self.racing(f, uuid, times: AccountStore.maxConditionalAttempts)
        #expect(
            accountError { _ = try f.service.store.updateProviders(up.account, deadline: .none) { _ in true } }
                == "conflict")
        #expect(
            f.providers(uuid)?.providers[0].lastUsed == "2027-01-08T00:00:00Z", "nothing of this update was written")
    }

    @Test func nothingToChangeWritesNothing() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let requests = f.backend.requests
        let account = try f.service.store.updateProviders(up.account, deadline: .none) { _ in false }
        #expect(f.backend.requests == requests && account.providersETag == up.account.providersETag)
    }

    @Test func anIdentityFileThatHoldsNoUUIDIsACorruptDocument() throws {
        let f = AccountFixture()
        let key = AccountKeys.identity(.apple, "001234.abc.0001")
        let object = S3Object(body: Array("not-a-uuid".utf8), etag: "\"e\"", contentType: "text/plain")
        #expect(accountError { _ = try f.service.store.mapping(object, key: key) } == "corruptDocument")
        #expect(try f.service.store.mapping(nil, key: key) == nil)
    }
}
