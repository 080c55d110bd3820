import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing
import TokenVerification

/// `rekeyApple` racing the account's deletion (contract v4, "An app moved to another Apple
/// developer team"): whatever re-keys (a sign-in with the new `sub`, the operator's `complete`).
@Suite struct RekeyTests {
    /// Simulation seed 1622: the re-key wrote the new identity file, then a deletion committed and
    /// its purge took providers.json before the re-key's commit. The deletion never saw the new
    /// `sub`; the re-key failed with CONFLICT ("providers.json disappeared") and left the file
    /// naming the deleted account. Now it takes the file back and the transfer is ignored.
    @Test(arguments: ["signin", "complete"])
    func aReKeyWhoseAccountWasPurgedMeanwhileTakesItsFileBack(_ by: String) throws {
        let f = AccountFixture()
        let (first, api) = try TransferTests().prepared(f)
        let uuid = first.account.serviceUserID
        let newKey = AccountKeys.identity(.apple, TransferTests.newSub)
        var deleted: DeletionOutcome?
        f.backend.intercept = { call, _ in
            if deleted == nil, case .s3Put(let put) = call, put.key == newKey {
                deleted = try? f.service.deletion.deleteAccount(
                    token: first.session.refreshToken.value, purgeUntil: .none, deadline: .none)
            }
            return .proceed
        }
        if by == "signin" {
            let out = try f.service.signIn.signIn(
                identity: TransferTests.moved(), intent: .auto, fullName: nil, deadline: .none)
            #expect(out.isNewUser && out.account.serviceUserID != uuid, "the transfer no longer applies")
        } else {
            let run = try f.service.appleTransfer.completeAppleTransfer(
                team: TransferTests.team, api: api, batch: 10, dryRun: false, deadline: .none)
            #expect(run.done == 0 && run.failed == 0)
        }
        f.backend.intercept = nil
        #expect(deleted != nil)
        #expect(f.s3.current(AccountKeys.providers(uuid)) == nil, "the purge took providers.json")
        if by == "complete" {
            #expect(f.s3.current(newKey) == nil, "the re-key's file names the deleted account")
        } else {
            #expect(f.s3.text(newKey) != uuid, "the new sub's file names the new account")
        }
        #expect(!f.s3.keys.contains { $0.hasPrefix("identities/") && f.s3.text($0) == uuid })
    }

    /// Simulation seed 2302597: two sign-ins with the new `sub` meet the file a re-key wrote before
    /// its commit. The second finishes the re-key (commit and clean-up, which removes the transfer)
    /// while the first is between its read of the account and its own re-key; the first then found
    /// no link prepared for the transfer, deleted the re-keyed link's file as a leftover and signed
    /// up a new, empty account. Now it reads the file again and signs in to the user's account.
    @Test func aSignInWhoseReKeyAnotherFinishedSignsInToTheAccount() throws {
        let f = AccountFixture()
        let (first, _) = try TransferTests().prepared(f)
        let uuid = first.account.serviceUserID
        let link = try #require(first.account.providers.providers.first { $0.type == .apple })
        let newKey = AccountKeys.identity(.apple, TransferTests.newSub)
        // A re-key that stopped after its new identity file (step 1).
        _ = try f.service.store.backend.put(
            f.service.store.identityPut(
                newKey, uuid: uuid, linkID: link.linkID, transferSub: TransferTests.transferSub),
            deadline: .none)
        var providersReads = 0
        var other: SignInOutcome?
        f.backend.intercept = { call, _ in
            guard other == nil, case .s3Get(let key) = call, key == AccountKeys.providers(uuid) else { return .proceed }
            providersReads += 1
            // The first sign-in's re-key reads the account again: the other device finishes first.
            if providersReads == 2 {
                other = try? f.service.signIn.signIn(
                    identity: TransferTests.moved(), intent: .auto, fullName: nil, deadline: .none)
            }
            return .proceed
        }
        let out = try f.service.signIn.signIn(
            identity: TransferTests.moved(), intent: .auto, fullName: nil, deadline: .none)
        f.backend.intercept = nil
        #expect(other?.account.serviceUserID == uuid && other?.rekeyed == true, "the other device re-keyed")
        #expect(out.account.serviceUserID == uuid && !out.isNewUser, "the user's own account, not a new one")
        #expect(f.s3.text(newKey) == uuid, "the re-keyed link's file stays")
        let apple = try #require(f.providers(uuid)?.providers.first { $0.type == .apple })
        #expect(apple.id == TransferTests.newSub && apple.linkID == link.linkID)
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty)
    }
}
