import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing
import TokenVerification

/// The suspension record and its copy on the holding account's entry, as Google's events and the
/// flows that make an identity usable write them (SuspensionFlow over the in-memory S3).
@Suite struct SuspensionFlowTests {
    static let sub = "104729385610293847561"
    static func state(_ suspended: Bool, at issuedMs: Int64) -> IdentitySuspension {
        IdentitySuspension(
            suspended: suspended, reason: suspended ? "hijacking" : nil, eventIssuedAtMs: issuedMs,
            changedAtMs: issuedMs + 5)
    }

    @Test func anOlderStateNeverReplacesANewerRecord() throws {
        let f = AccountFixture()
        let flow = f.service.suspensions
        let newer = Self.state(false, at: 2_000), older = Self.state(true, at: 1_000)
        #expect(try flow.recordSuspension(newer, provider: .google, id: Self.sub, deadline: .none) == (newer, true))
        let after = try flow.recordSuspension(older, provider: .google, id: Self.sub, deadline: .none)
        #expect(after.newest == newer && !after.wrote, "the stored, newer state stands")
        let stored = f.s3.json(AccountKeys.suspension(.google, Self.sub)).flatMap(IdentitySuspension.init(json:))
        #expect(stored == newer)
    }

    @Test func aSuspensionOnTheEntryEndsItsSessionsAndRefusesTheIdentity() throws {
        let f = AccountFixture()
        let up = try f.signUp(AccountFixture.google(Self.sub))
        let flow = f.service.suspensions
        f.nowMs += 60_000
        let account = try flow.applySuspension(
            Self.state(true, at: f.nowMs - 1_000), to: up.account, provider: .google, id: Self.sub, deadline: .none)
        let entry = try #require(account.providers.providers.first { $0.id == Self.sub })
        #expect(entry.suspension?.suspended == true)
        #expect(entry.sessionsNotBeforeMs == f.nowMs, "every session signed in so far ends")
        #expect(f.providers(up.account.serviceUserID) == account.providers, "written, not only answered")
        #expect(throws: AccountError.self) {
            _ = try flow.enforce(nil, on: account, provider: .google, id: Self.sub, deadline: .none)
        }
    }

    @Test func anIdentityTheAccountDoesNotListChangesNothing() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let before = f.s3.current(AccountKeys.providers(up.account.serviceUserID))?.etag
        let account = try f.service.suspensions.applySuspension(
            Self.state(true, at: 1_000), to: up.account, provider: .google, id: Self.sub, deadline: .none)
        #expect(account.providers == up.account.providers)
        #expect(f.s3.current(AccountKeys.providers(up.account.serviceUserID))?.etag == before, "no write")
    }
}
