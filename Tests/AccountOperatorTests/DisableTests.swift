import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

/// Issue 23, defect 5 (the last item): a sign-in refused because the account is disabled takes
/// back the session record it wrote, whatever time is left. On main that went through the
/// account purge, which starts no round with less than 1.5 s left: the record stayed.
@Suite struct DisableTests {
    let disable = AccountDisable(reason: "abuse", atMs: 1_800_000_000_000, by: "arn:aws:iam::1:user/ops")

    @Test func aRefusedSignInLeavesNoSessionRecordEvenWithLittleTimeLeft() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        #expect(try f.service.operatorFlow.setDisabled(uuid, disable, deadline: .none))
        let sessions = AccountKeys.sessionsPrefix(uuid)
        let before = f.s3.versions(under: sessions)
        for remaining: Int64 in [1_000, 400] {
            let error = accountError {
                _ = try f.service.signIn.signIn(
                    identity: AccountFixture.apple, intent: .signin, fullName: nil,
                    deadline: .after(milliseconds: remaining))
            }
            #expect(error == "accountDisabled")
            #expect(
                f.s3.versions(under: sessions) == before, "\(remaining) ms left: the refused sign-in's record stayed")
        }
    }
}
