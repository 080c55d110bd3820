import AccountEvents
import AccountModel
import TokenVerification

extension Answer {
    /// A Sign in with Apple account event's answer. An unlink or deletion it caused writes the
    /// same audit line (and, for a deletion, the same `Deletions` count) as the user's own
    /// `unlink` or `delete`; the metric record's operation (`appleAccountEvent`) tells them apart.
    package static func appleEvent(_ result: AppleEventResult) -> Answer {
        var answer = event(status: result.outcome.rawValue)
        switch result.change {
        case .unlinked(let uuid)?:
            answer.audit = AuditRecord(
                operation: "unlink", serviceUserID: uuid, provider: IdentityProvider.apple.rawValue, outcome: "unlinked"
            )
        case .deleted(let uuid, let purgeComplete)?:
            answer.audit = AuditRecord(
                operation: "delete", serviceUserID: uuid, provider: nil,
                outcome: purgeComplete ? "purge complete" : "purge pending")
            answer.counts["Deletions"] = 1
        case nil:
            break
        }
        return answer
    }
}
