import AccountEvents
import AccountModel
import AccountSuspensions
import AuthService
import PlatformSupport
import TokenVerification

/// Google's Cross-Account Protection (RISC): a security event token posted to auth-link's
/// Function URL as `application/secevent+jwt` (docs/API.md, "Google's security events").
/// Answers 202 when processed, a duplicate, about an identity no account holds or of a type that
/// is only logged; 400 when verification fails (nothing changes); 503 on a transient failure, so
/// that Google delivers it again.
package struct GoogleSecurityEventAction: Action {
    package static let name = "googleSecurityEvent"

    package let token: String

    package static func matches(_ invocation: Invocation) -> Bool { invocation.isSecurityEvent }

    package init(_ request: Request) throws(ServiceError) {
        token = try request.requiredString(Invocation.securityEventMember, maxBytes: Invocation.maxEventBytes)
    }

    package var provider: IdentityProvider? { .google }
    package var successStatus: Int { 202 }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        let set = try d.verifier.verifyGoogleSecurityEvent(token, deadline: deadline)
        var handled: [(GoogleSecurityEvent, GoogleSecurityEventResult)] = []
        for (i, event) in set.events.enumerated() {
            // One marker per event: a token's events are processed at most once each, and a
            // redelivery after a failure finishes the ones that did not get through.
            let id = set.events.count == 1 ? set.eventID : "\(set.eventID)#\(i)"
            let result = try d.googleEvents.processGoogleSecurityEvent(
                Self.effect(of: event), subject: event.subject, eventID: id, issuedAtMs: set.issuedAt &* 1000,
                deadline: deadline)
            handled.append((event, result))
        }
        return .googleSecurityEvent(handled)
    }

    /// What the event asks of the identity it names (contract v4); nil for the types that are
    /// only logged (`account-credential-change-required`, `verification`, unknown ones).
    package static func effect(of event: GoogleSecurityEvent) -> GoogleSecurityEffect? {
        switch event.kind {
        case .sessionsRevoked, .tokensRevoked, .tokenRevoked: return .endSessions
        case .accountDisabled: return event.reason == "hijacking" ? .suspend(reason: "hijacking") : .endSessions
        case .accountEnabled: return .lift
        case .accountCredentialChangeRequired, .verification, .other: return nil
        }
    }

    package func httpStatus(for error: ServiceError) -> Int { Self.notificationStatus(for: error) }
}
