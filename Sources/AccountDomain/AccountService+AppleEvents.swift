import AWSClients
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
extension AccountService {
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
        let marker = AccountKeys.notificationMarker("apple-account", AccountService.markerName(eventID))
        var reads = Round()
        let markerSlot = reads.get(marker)
        let validSubject = ProviderSubject.isValid(subject)
        let identityKey = AccountKeys.identity(.apple, validSubject ? subject : "invalid")
        let identitySlot = validSubject ? reads.get(identityKey) : nil
        let answers = backend.run(reads, deadline: deadline)
        if try answers.value(markerSlot) != nil { return AppleEventResult(outcome: .duplicate) }
        var outcome = AppleEventOutcome.unknownIdentity
        var change: AppleEventChange?
        if let identitySlot, let file = try mapping(answers.value(identitySlot), key: identityKey) {
            let docs = try readAccount(file.uuid, deadline: deadline)
            if let account = try account(uuid: file.uuid, profile: docs.profile, providers: docs.providers),
                !account.providers.isDeleted, account.providers.index(of: .apple, id: subject) != nil
            {
                change = try apply(event, subject: subject, to: account, purgeUntil: purgeUntil, deadline: deadline)
                outcome = .processed
            }
        }
        try markProcessed(marker, deadline: deadline)
        return AppleEventResult(outcome: outcome, change: change)
    }

    @discardableResult
    func apply(
        _ event: AppleAccountEvent, subject: String, to account: Account, purgeUntil: Deadline, deadline: Deadline
    ) throws(AccountError) -> AppleEventChange? {
        switch event {
        case .emailDisabled, .emailEnabled:
            let deliverable = event == .emailEnabled
            _ = try updateProviders(account, deadline: deadline) {
                (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
                guard !doc.isDeleted, let i = doc.index(of: .apple, id: subject),
                    doc.providers[i].emailDeliverable != deliverable
                else { return false }
                doc.providers[i].emailDeliverable = deliverable
                return true
            }
        case .consentRevoked:
            let sessions = try liveSessions(account.serviceUserID, account: account, deadline: deadline)
            for (record, _) in sessions where record.identity.provider == .apple && record.identity.subject == subject {
                _ = try revokeSession(
                    account.serviceUserID, record.sessionID, reason: "Apple consent revoked", deadline: deadline)
            }
        case .accountDelete:
            if account.providers.providers.count > 1 {
                do throws(AccountError) {
                    _ = try removeLink(account, provider: .apple, subject: subject, deadline: deadline)
                    return .unlinked(serviceUserID: account.serviceUserID)
                } catch {
                    // The user unlinked the other provider meanwhile: Apple's ID is now the last
                    // one, so the account goes (a 4xx here would drop the event: Apple does not
                    // retry it). Retired or replaced meanwhile: nothing is left to do.
                    switch error {
                    case .lastProvider: break
                    case .providerNotLinked, .sessionInvalid: return nil
                    default: throw error
                    }
                }
            }
            let record = try beginDeletion(account.serviceUserID, deadline: deadline)
            let finished = try finishDeletion(
                account.serviceUserID, record, account: nil, purgeUntil: purgeUntil, deadline: deadline)
            return .deleted(serviceUserID: account.serviceUserID, purgeComplete: finished.0.purgeComplete)
        }
        return nil
    }

    /// A notification id as a key segment: itself when it is a safe one, else its SHA-256 in hex.
    static func markerName(_ id: String) -> String {
        ProviderSubject.isValid(id) && id.utf8.count <= 128 ? id : Hex.encode(SHA256.hash(id))
    }

    /// Marks a notification processed, after its idempotent effect (both kinds of Apple's
    /// notifications). A 412 means a concurrent delivery marked it: the effect is the same.
    func markProcessed(_ marker: String, deadline: Deadline) throws(AccountError) {
        let mark = S3Put(key: marker, body: [], contentType: "application/octet-stream", condition: .ifNoneMatch)
        _ = try backend.put(mark, deadline: deadline)
    }
}
