import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountSessions
import AccountStore
import AccountSuspensions
import PlatformSupport

/// What one of Google's security events asks of the Google identity it names (contract v4,
/// "Google's security events"); the event types that only get logged have none.
package enum GoogleSecurityEffect: Sendable, Equatable {
    /// `sessions-revoked`, `tokens-revoked`, `token-revoked`, `account-disabled` for a reason
    /// other than hijacking: every session signed in with the identity ends.
    case endSessions
    /// `account-disabled` with reason `hijacking`: the sessions end and the identity is
    /// suspended (IDENTITY_SUSPENDED) until `account-enabled`.
    case suspend(reason: String)
    /// `account-enabled`: the suspension ends (the sessions it ended stay ended).
    case lift
}

package enum GoogleSecurityEventOutcome: String, Sendable {
    /// An account holds the identity, and the event's effect is applied to it.
    case processed
    /// This event (its `jti`) was processed before.
    case duplicate
    /// No account holds the identity; a suspension (or its end) is still recorded, so a sign-up
    /// or link with it is refused while it lasts.
    case unknownIdentity
    /// An event that changes nothing here (logged and acknowledged).
    case acknowledged
}

/// How a Google security event ended and what it changed, for the answer, the audit line and
/// the metrics.
package struct GoogleSecurityEventResult: Sendable, Equatable {
    package var outcome: GoogleSecurityEventOutcome
    /// The account that holds the identity (nil: none).
    package var serviceUserID: String?
    /// Whether the identity's sessions on that account were ended.
    package var sessionsEnded = false
    /// The identity's suspension as it stands after the event (nil: the event was not about it).
    package var suspension: IdentitySuspension?
    /// Whether this event set that state (false for one delivered late, older than the state stored).
    package var suspensionChanged = false

    package init(outcome: GoogleSecurityEventOutcome) { self.outcome = outcome }
}

extension GoogleEventFlow {
    /// Applies one verified Google security event about Google identity `subject` (nil: an event
    /// about no identity, such as `verification`). Processed at most once per `eventID` (the
    /// SET's `jti`): the marker is written after the event's idempotent effect, so Google's
    /// redelivery after a failure applies it and a replay does nothing. The account itself, its
    /// other providers and its data are never touched.
    package func processGoogleSecurityEvent(
        _ effect: GoogleSecurityEffect?, subject: String?, eventID: String, issuedAtMs: Int64, deadline: Deadline
    ) throws(AccountError) -> GoogleSecurityEventResult {
        let marker = AccountKeys.notificationMarker("google-risc", AccountStore.markerName(eventID))
        if try store.backend.get(marker, deadline: deadline) != nil {
            return GoogleSecurityEventResult(outcome: .duplicate)
        }
        var result = GoogleSecurityEventResult(outcome: .acknowledged)
        if let effect, let subject, ProviderSubject.isValid(subject) {
            result = try apply(effect, to: subject, issuedAtMs: issuedAtMs, deadline: deadline)
        }
        try store.markProcessed(marker, deadline: deadline)
        return result
    }

    /// The effect on `sub`: the suspension record first (so a sign-up or link racing this event
    /// reads it after its own commit), then the holding account's entry.
    private func apply(
        _ effect: GoogleSecurityEffect, to sub: String, issuedAtMs: Int64, deadline: Deadline
    ) throws(AccountError) -> GoogleSecurityEventResult {
        var result = GoogleSecurityEventResult(outcome: .unknownIdentity)
        var newest: IdentitySuspension?
        let now = store.environment.now()
        switch effect {
        case .endSessions: break
        case .suspend(let reason):
            let state = IdentitySuspension(
                suspended: true, reason: reason, eventIssuedAtMs: issuedAtMs, changedAtMs: now)
            (newest, result.suspensionChanged) = try suspensions.recordSuspension(
                state, provider: .google, id: sub, deadline: deadline)
        case .lift:
            let state = IdentitySuspension(suspended: false, reason: nil, eventIssuedAtMs: issuedAtMs, changedAtMs: now)
            (newest, result.suspensionChanged) = try suspensions.recordSuspension(
                state, provider: .google, id: sub, deadline: deadline)
        }
        result.suspension = newest
        let key = AccountKeys.identity(.google, sub)
        guard let file = try store.mapping(store.backend.get(key, deadline: deadline), key: key) else { return result }
        let docs = try store.readAccount(file.uuid, deadline: deadline)
        guard let account = try store.account(uuid: file.uuid, profile: docs.profile, providers: docs.providers),
            !account.providers.isDeleted, account.providers.index(of: .google, id: sub) != nil
        else { return result }
        result.outcome = .processed
        result.serviceUserID = file.uuid
        if let newest {
            let suspending = effect != .lift
            _ = try suspensions.applySuspension(
                newest, to: account, provider: .google, id: sub, endingSessions: suspending, deadline: deadline)
            result.sessionsEnded = suspending
        } else {
            result.sessionsEnded = try suspensions.endSessions(
                of: account, provider: .google, id: sub, deadline: deadline)
        }
        return result
    }
}
