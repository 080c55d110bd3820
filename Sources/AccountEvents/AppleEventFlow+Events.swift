import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import CryptoPrimitives
import PlatformSupport

/// One of Sign in with Apple's server-to-server account events (docs/API.md, "Notifications").
package enum AppleAccountEvent: String, Sendable, CaseIterable {
    case emailDisabled = "email-disabled"
    case emailEnabled = "email-enabled"
    case consentRevoked = "consent-revoked"
    case accountDelete = "account-delete"
}

package enum AppleEventOutcome: String, Sendable {
    case processed
    /// This event (its `jti`) was processed before.
    case duplicate
    /// No account has this Apple identity (any more): nothing to do.
    case unknownIdentity
}

/// Apple's account events, applied to the account that has the Apple identity: the email
/// relay's state on its provider entry; consent revoked ends the sessions signed in with it (the
/// link stays); the Apple ID deleted unlinks it, or deletes the account when it was the last
/// provider. Each event is processed at most once (a marker per `jti`, written after the event's
/// idempotent effect, so a retry after a failure does it again and a replay does nothing).
extension AppleEventFlow {
    package func handleAppleEvent(
        _ event: AppleAccountEvent, subject: String, eventID: String, purgeUntil: Deadline,
        deadline: Deadline
    ) throws(AccountError) -> AppleEventOutcome {
        try processAppleEvent(event, subject: subject, eventID: eventID, purgeUntil: purgeUntil, deadline: deadline)
            .outcome
    }

    /// `handleAppleEvent`, also saying what the event changed (an unlink or a deletion), for the
    /// audit line and the `Deletions` metric.
    package func processAppleEvent(
        _ event: AppleAccountEvent, subject: String, eventID: String, purgeUntil: Deadline,
        deadline: Deadline
    ) throws(AccountError) -> AppleEventResult {
        let marker = AccountKeys.notificationMarker("apple-account", AccountStore.markerName(eventID))
        var reads = Round()
        let markerSlot = reads.get(marker)
        let validSubject = ProviderSubject.isValid(subject)
        let identityKey = AccountKeys.identity(.apple, validSubject ? subject : "invalid")
        let identitySlot = validSubject ? reads.get(identityKey) : nil
        let answers = store.backend.run(reads, deadline: deadline)
        if try answers.value(markerSlot) != nil { return AppleEventResult(outcome: .duplicate) }
        var outcome = AppleEventOutcome.unknownIdentity
        var change: AppleEventChange?
        if let identitySlot, let file = try store.mapping(answers.value(identitySlot), key: identityKey) {
            let docs = try store.readAccount(file.uuid, deadline: deadline)
            if let account = try store.account(uuid: file.uuid, profile: docs.profile, providers: docs.providers),
                !account.providers.isDeleted, account.providers.index(of: .apple, id: subject) != nil
            {
                change = try apply(event, subject: subject, to: account, purgeUntil: purgeUntil, deadline: deadline)
                outcome = .processed
            }
        }
        try store.markProcessed(marker, deadline: deadline)
        return AppleEventResult(outcome: outcome, change: change)
    }

    @discardableResult
    package func apply(
        _ event: AppleAccountEvent, subject: String, to account: Account, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> AppleEventChange? {
        switch event {
        case .emailDisabled, .emailEnabled:
            let deliverable = event == .emailEnabled
            _ = try store.updateProviders(account, deadline: deadline) {
                (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                guard !doc.isDeleted, let i = doc.index(of: .apple, id: subject),
                    doc.providers[i].emailDeliverable != deliverable
                else { return false }
                doc.providers[i].emailDeliverable = deliverable
                return true
            }
        case .consentRevoked:
            // The identity is its link, not the `sub` a session stored (contract v5): sessions
            // signed in before an app transfer re-keyed the link carry the former `sub` and the
            // same link id, and Apple's event about the new `sub` ends them too.
            guard let i = account.providers.index(of: .apple, id: subject) else { return nil }
            let link = account.providers.providers[i]
            let live = try sessions.liveSessions(account.serviceUserID, account: account, deadline: deadline)
            for (record, _) in live where account.providers.listedLink(record.identity) == link {
                _ = try sessions.revokeSession(
                    account.serviceUserID, record.sessionID, reason: "Apple consent revoked", deadline: deadline)
            }
        case .accountDelete:
            return try appleAccountDeleted(subject, account: account, purgeUntil: purgeUntil, deadline: deadline)
        }
        return nil
    }

    /// `account-delete`: the Apple link unlinked when another provider is listed beside it, else
    /// the account deleted, with Apple's event as the deletion's cause: it commits only while that
    /// link is still the only listed provider (contract v4), and when another was linked meanwhile
    /// the deletion is dropped and Apple's link unlinked instead. A client error here would drop
    /// the event for good (Apple does not retry those), so none is thrown.
    package func appleAccountDeleted(
        _ subject: String, account: Account, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> AppleEventChange? {
        let uuid = account.serviceUserID
        if account.providers.providers.count > 1 {
            do throws(AccountError) {
                _ = try links.removeLink(
                    account, provider: .apple, subject: subject, refusesDisabled: false, deadline: deadline)
                try deletion.dropUncommittedAppleDeletion(uuid, deadline: deadline)
                return .unlinked(serviceUserID: uuid)
            } catch {
                // The user unlinked the other provider meanwhile: Apple's ID is now the last one,
                // so the account goes. Retired or replaced meanwhile: nothing is left to do.
                switch error {
                case .lastProvider: break
                case .providerNotLinked, .sessionInvalid:
                    try deletion.dropUncommittedAppleDeletion(uuid, deadline: deadline)
                    return nil
                default: throw error
                }
            }
        }
        let linkID = account.providers.providers.first { $0.type == .apple && $0.id == subject }?.linkID
        let record = try deletion.beginDeletion(uuid, cause: .appleAccountDelete(linkID: linkID), deadline: deadline)
        switch try deletion.continueDeletion(uuid, record, account: nil, purgeUntil: purgeUntil, deadline: deadline) {
        case .recorded(let finished, _):
            return .deleted(serviceUserID: uuid, purgeComplete: finished.purgeComplete)
        case .dropped(let unlinkedApple):
            return unlinkedApple ? .unlinked(serviceUserID: uuid) : nil
        }
    }

}
