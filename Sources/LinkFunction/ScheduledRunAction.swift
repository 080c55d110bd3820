import AccountDeletion
import AccountEvents
import AccountModel
import AccountStore
import AuthService
import PlatformSupport

/// The hourly EventBridge schedule's invocation of auth-link (docs/API.md, "Scheduled run"):
/// finish pending deletions and run due second passes within the deadline, then answer a
/// summary. Accepted only through the schedule's own path: auth-link's alias `scheduled`, which
/// only EventBridge may invoke (template.yaml); the same event invoked any other way (the app's
/// invoke permission covers the unqualified function only) is INVALID_REQUEST before anything is
/// read or listed, so it cannot cost a run (issue 18, defect 7).
package struct ScheduledRunAction: Action {
    package static let name = "scheduledRun"
    package static let reserveMilliseconds: Int64 = 1_000
    /// The alias the schedule invokes (template.yaml, `AuthLinkScheduledAlias`).
    package static let alias = "scheduled"

    /// Whether `arn` names this function through the schedule's alias:
    /// `arn:<partition>:lambda:<region>:<account>:function:<name>:scheduled` (a function that is
    /// itself named `scheduled`, invoked unqualified, has one part fewer).
    package static func isScheduleAlias(_ arn: String) -> Bool {
        let parts = arn.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 8 && parts[0] == "arn" && parts[2] == "lambda" && parts[5] == "function"
            && parts[7] == Substring(alias)
    }

    /// EventBridge's scheduled event: `"source": "aws.events"`, `"detail-type": "Scheduled Event"`.
    package static func matches(_ invocation: Invocation) -> Bool {
        let object = invocation.request.object
        return invocation.shape == .direct && object["source"]?.stringValue == "aws.events"
            && object["detail-type"]?.stringValue == "Scheduled Event"
    }

    package init(_ request: Request) throws(ServiceError) {
        guard Self.isScheduleAlias(request.invokedFunctionARN) else {
            throw ServiceError(
                .invalidRequest,
                "A scheduled run is accepted only from the schedule (through auth-link's '\(Self.alias)' alias).")
        }
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .scheduledRun(
            try d.deletion.runScheduledDeletions(
                purgeUntil: deadline.earlier(by: Self.reserveMilliseconds), deadline: deadline))
    }
}
