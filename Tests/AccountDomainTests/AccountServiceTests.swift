import AWSClients
import CurlHTTP
import StrictJSON
import Testing
import TokenVerification
@testable import AccountDomain

/// Flows over the in-memory double: faults and exact-moment races the real stand-ins cannot
/// produce on demand. The same flows run end to end against moto in Tests/integration.
@Suite struct AccountServiceTests {
    let settings = AccountSettings(bucket: "photo-identities", region: "us-east-1", userRoleARN: "arn:aws:iam::123456789012:role/user-access")
    var clock: Int64 = 1_800_000_000_000

    func service(_ backend: InMemoryBackend, now: @escaping () -> Int64) -> AccountService {
        AccountService(backend: backend, settings: settings, now: now)
    }

    func apple(_ sub: String = "001234.abc.0001", email: String? = "a@privaterelay.appleid.com") -> VerifiedIdentity {
        VerifiedIdentity(provider: .apple, subject: sub, email: email, emailVerified: true, isPrivateEmail: true, name: nil, realUserStatus: 2)
    }

    func google(_ sub: String = "104729385610293847561") -> VerifiedIdentity {
        VerifiedIdentity(provider: .google, subject: sub, email: "ada@gmail.com", emailVerified: true, isPrivateEmail: nil, name: "Ada L", realUserStatus: nil)
    }

    @Test func signUpTakesThreeRoundsAndSignInTwo() throws {
        let b = InMemoryBackend()
        let s = service(b) { 1_800_000_000_000 }
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: "Ada", deadline: .none)
        #expect(up.isNewUser && b.rounds == 3)
        #expect(b.assumed.count == 1 && b.assumed[0].sessionName == "user-\(up.account.profile.serviceUserID)")
        b.rounds = 0; b.requests = 0
        let again = try s.signIn(identity: apple(), intent: .signin, fullName: nil, deadline: .none)
        #expect(!again.isNewUser && again.account.profile.serviceUserID == up.account.profile.serviceUserID)
        #expect(b.rounds == 2 && b.requests == 5)
    }

    @Test func losingTheSignUpRaceAnswersAsSignInOfTheWinner() throws {
        let b = InMemoryBackend()
        let winner = "0a0b0c0d-0e0f-4000-8000-000000000001"
        b.intercept = { op, backend in
            if case .put(let p) = op, p.key == AccountKeys.identity(.apple, "001234.abc.0001"), p.condition == .ifNoneMatch,
               backend.objects[p.key] == nil {
                backend.store(p.key, Array(winner.utf8), "text/plain") // the other sign-up lands first
            }
            return nil
        }
        let out = try service(b) { 1_800_000_000_000 }.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        #expect(out.account.profile.serviceUserID == winner)
        #expect(b.objects.keys.filter { $0.hasSuffix("profile.json") }.count == 1)
    }

    @Test func crashAfterIdentityFileIsCompletedWithTheSameUUID() throws {
        let b = InMemoryBackend()
        let uuid = "0a0b0c0d-0e0f-4000-8000-000000000002"
        b.store(AccountKeys.identity(.apple, "001234.abc.0001"), Array(uuid.utf8), "text/plain")
        let out = try service(b) { 1_800_000_000_000 }.signIn(identity: apple(), intent: .signin, fullName: "Ada", deadline: .none)
        #expect(out.account.profile.serviceUserID == uuid && out.account.profile.displayName == "Ada")
        #expect(b.objects[AccountKeys.providers(uuid)] != nil && b.objects["users/\(uuid)/photos/"] != nil)
    }

    @Test func s3OutageSurfacesAsUpstream() {
        let b = InMemoryBackend()
        b.intercept = { _, _ in AWSError(kind: .unavailable, code: "SlowDown", message: "slow down", requestID: nil) }
        #expect(throws: AccountError.self) { try service(b) { 0 }.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none) }
        #expect(b.objects.isEmpty)
    }

    @Test func refreshRetriesALostRaceAndSettlesInGrace() throws {
        let b = InMemoryBackend()
        let now: Int64 = 1_800_000_000_000
        let s = service(b) { now }
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        let sessionKey = AccountKeys.session(up.account.profile.serviceUserID, up.session.refreshToken.sessionID)
        var raced = false
        b.intercept = { op, backend in
            // Another refresh of the same token lands between our read and our write.
            if !raced, case .put(let p) = op, p.key == sessionKey, case .ifMatch = p.condition {
                raced = true
                let record = SessionRecord(json: try! JSONParser.parse(backend.objects[sessionKey]!.body))!
                let other = RefreshToken.issue(serviceUserID: up.account.profile.serviceUserID, sessionID: up.session.refreshToken.sessionID)
                backend.store(sessionKey, record.rotated(by: .rotate, newToken: other, nowMs: now).json.serialized())
            }
            return nil
        }
        let out = try s.refresh(token: up.session.refreshToken.value, deadline: .none)
        #expect(raced && out.session.refreshToken != up.session.refreshToken)
        let final = SessionRecord(json: try JSONParser.parse(b.objects[sessionKey]!.body))!
        #expect(final.decide(tokenHash: out.session.refreshToken.hash, nowMs: now, graceSeconds: 30) == .rotate)
        #expect(!final.isRevoked)
    }

    @Test func endlessContentionAnswersConflict() throws {
        let b = InMemoryBackend()
        let s = service(b) { 1_800_000_000_000 }
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        let key = AccountKeys.providers(up.account.profile.serviceUserID)
        b.intercept = { op, backend in
            if case .put(let p) = op, p.key == key { backend.store(key, backend.objects[key]!.body) } // someone always writes first
            return nil
        }
        #expect {
            try s.link(token: up.session.refreshToken.value, identity: google(), deadline: .none)
        } throws: { error in
            if case AccountError.conflict = error { return true }
            return false
        }
    }

    @Test func linkNeedsRecentSignIn() throws {
        let b = InMemoryBackend()
        var now: Int64 = 1_800_000_000_000
        let s = AccountService(backend: b, settings: settings, now: { now })
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        now += 601_000
        #expect {
            try s.link(token: up.session.refreshToken.value, identity: google(), deadline: .none)
        } throws: { error in
            if case AccountError.reauthenticationRequired = error { return true }
            return false
        }
        #expect(b.objects[AccountKeys.identity(.google, "104729385610293847561")] == nil)
    }

    @Test func secondIdentityOfTheSameProviderIsRefused() throws {
        let b = InMemoryBackend()
        let s = service(b) { 1_800_000_000_000 }
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        _ = try s.link(token: up.session.refreshToken.value, identity: google(), deadline: .none)
        #expect(throws: AccountError.self) { try s.link(token: up.session.refreshToken.value, identity: google("999"), deadline: .none) }
        #expect(b.objects[AccountKeys.identity(.google, "999")] == nil)
    }

    @Test func unlinkKeepsAnIdentityFileOfAnotherAccount() throws {
        let b = InMemoryBackend()
        let s = service(b) { 1_800_000_000_000 }
        let up = try s.signIn(identity: apple(), intent: .auto, fullName: nil, deadline: .none)
        _ = try s.link(token: up.session.refreshToken.value, identity: google(), deadline: .none)
        let other = "0a0b0c0d-0e0f-4000-8000-000000000003"
        b.store(AccountKeys.identity(.google, "104729385610293847561"), Array(other.utf8), "text/plain")
        let out = try s.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
        #expect(out.status == .unlinked)
        #expect(b.text(AccountKeys.identity(.google, "104729385610293847561")) == other)
    }
}
