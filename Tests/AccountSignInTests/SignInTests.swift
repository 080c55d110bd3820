import AWSClients
import AccountTestSupport
import Testing

@Suite struct SignInTests {
    @Test func signUpTakesThreeRoundsAndSignInTwoRoundsOfFiveRequests() throws {
        let f = AccountFixture()
        let up = try f.signUp(device: "iPhone")
        #expect(up.isNewUser && f.backend.rounds == 3)
        #expect(f.s3.assumed.count == 1 && f.s3.assumed[0].sessionName == "user-\(up.account.serviceUserID)")
        f.backend.rounds = 0
        f.backend.requests = 0
        let again = try f.service.signIn.signIn(
            identity: AccountFixture.apple, intent: .signin, fullName: nil, deadline: .none)
        #expect(!again.isNewUser && again.account.serviceUserID == up.account.serviceUserID)
        #expect(f.backend.rounds == 2 && f.backend.requests == 5)
    }

    @Test func theLinkIDIsBornWithTheIdentityFileAndCarriedEverywhere() throws {
        let f = AccountFixture()
        let up = try f.signUp(device: "iPhone")
        let linkID = try #require(f.linkID(of: AccountFixture.apple))
        #expect(AccountKeys.isHexID(linkID))
        #expect(f.providers(up.account.serviceUserID)?.providers.first?.linkID == linkID)
        let record = try #require(f.session(up.session.refreshToken))
        #expect(
            record.identity == SessionIdentity(provider: .apple, subject: AccountFixture.apple.subject, linkID: linkID))
        #expect(record.device == "iPhone")
        let tags = f.s3.current(AccountKeys.session(up.account.serviceUserID, record.sessionID))?.tags ?? []
        #expect(tags.count == 1 && tags[0] == AccountStore.sessionTag)
    }

    @Test func losingTheSignUpRaceAnswersAsSignInOfTheWinner() throws {
        let f = AccountFixture()
        let key = AccountKeys.identity(.apple, AccountFixture.apple.subject)
        var winner: String?
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key == key, winner == nil {
                winner = try? f.signUp().account.serviceUserID  // the other sign-up lands first
            }
            return .proceed
        }
        let out = try f.signUp()
        #expect(out.account.serviceUserID == winner)
        #expect(f.s3.keys.filter { $0.hasSuffix("profile.json") }.count == 1)
    }

    @Test func aLostAnswerToTheSignUpsOwnIdentityWriteIsStillItsSignUp() throws {
        let f = AccountFixture()
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.hasPrefix("identities/") { return .appliedThenRetried }
            return .proceed
        }
        let out = try f.signUp()
        #expect(out.isNewUser && f.providers(out.account.serviceUserID)?.providers.count == 1)
    }

    @Test func crashAfterTheIdentityFileIsCompletedWithTheSameUUIDAndLink() throws {
        let f = AccountFixture()
        let uuid = "0a0b0c0d-0e0f-4000-8000-000000000002"
        f.s3.store(
            AccountKeys.identity(.apple, AccountFixture.apple.subject), Array(uuid.utf8), contentType: "text/plain",
            metadata: [(AccountKeys.linkIDMetadata, "00112233445566778899aabbccddeeff")])
        let out = try f.service.signIn.signIn(
            identity: AccountFixture.apple, intent: .signin, fullName: "Ada", deadline: .none)
        #expect(out.account.serviceUserID == uuid && out.account.profile.displayName == "Ada" && out.isNewUser)
        #expect(out.account.providers.providers.first?.linkID == "00112233445566778899aabbccddeeff")
        #expect(f.s3.current("users/\(uuid)/photos/") != nil)
    }

    @Test func filesFromBeforeLinkIDsStillSignIn() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        // Rewrite the account as the previous version stored it: no link id anywhere.
        f.s3.store(
            AccountKeys.identity(.apple, AccountFixture.apple.subject), Array(uuid.utf8), contentType: "text/plain")
        var doc = try #require(f.providers(uuid))
        doc.providers[0].linkID = nil
        f.s3.store(AccountKeys.providers(uuid), doc.json.serialized())
        let again = try f.service.signIn.signIn(
            identity: AccountFixture.apple, intent: .signin, fullName: nil, deadline: .none)
        #expect(again.account.serviceUserID == uuid)
        _ = try f.service.sessions.refresh(token: again.session.refreshToken.value, deadline: .none)
    }

    @Test func anOutageWritesNothingAndSurfacesAsUpstream() {
        let f = AccountFixture()
        f.backend.intercept = { _, _ in .fail(DirectBackend.outage) }
        #expect(accountError { _ = try f.signUp() } == "upstream")
        #expect(f.s3.keys.isEmpty)
    }

    @Test func intents() throws {
        let f = AccountFixture()
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.apple, intent: .signin, fullName: nil, deadline: .none)
            } == "accountNotFound")
        #expect(f.s3.keys.isEmpty)
        _ = try f.service.signIn.signIn(identity: AccountFixture.apple, intent: .signup, fullName: nil, deadline: .none)
        let before = f.backend.fingerprint
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.apple, intent: .signup, fullName: nil, deadline: .none)
            } == "accountAlreadyExists")
        #expect(f.backend.fingerprint == before)
    }
}
