import AccountDeletion
import AccountEvents
import AccountModel
import AccountStore
import StrictJSON
import Testing

@testable import AuthService

/// Issue 18, defect 7: deletions and unlinks caused by Apple's account events write the audit
/// line and the `Deletions` count the user's own `delete` and `unlink` write.
@Suite struct AnswerAppleEventTests {
    let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"

    @Test func aDeletionIsAuditedAndCounted() {
        let answer = Answer.appleEvent(
            AppleEventResult(outcome: .processed, change: .deleted(serviceUserID: uuid, purgeComplete: false)))
        #expect(
            answer.audit
                == AuditRecord(operation: "delete", serviceUserID: uuid, provider: nil, outcome: "purge pending"))
        #expect(answer.counts == ["Deletions": 1])
        #expect(answer.data["status"] == .string("processed"))
    }

    @Test func anUnlinkIsAuditedAsTheUsersUnlinkOfApple() {
        let answer = Answer.appleEvent(AppleEventResult(outcome: .processed, change: .unlinked(serviceUserID: uuid)))
        #expect(
            answer.audit
                == AuditRecord(operation: "unlink", serviceUserID: uuid, provider: "apple", outcome: "unlinked"))
        #expect(answer.counts.isEmpty)
    }

    /// Issue 23, defect 2: a scheduled run that dropped the deletion Apple's event had started
    /// (another provider was linked since) and unlinked Apple audits that unlink as the event would.
    @Test func aScheduledRunThatUnlinkedAppleAuditsTheUnlink() {
        var outcome = ScheduledRunOutcome(purged: 1, pending: 0)
        outcome.appleUnlinks = [uuid]
        let answer = Answer.scheduledRun(outcome)
        #expect(
            answer.audits == [
                AuditRecord(operation: "unlink", serviceUserID: uuid, provider: "apple", outcome: "unlinked")
            ])
        #expect(answer.data["purged"] == .int(1) && answer.data["pending"] == .int(0))
        #expect(Answer.scheduledRun(ScheduledRunOutcome(purged: 0, pending: 0)).audits.isEmpty)
    }

    @Test func noChangeNoAuditLine() {
        for outcome in [AppleEventOutcome.processed, .duplicate, .unknownIdentity] {
            let answer = Answer.appleEvent(AppleEventResult(outcome: outcome))
            #expect(answer.audit == nil && answer.counts.isEmpty)
        }
    }
}
