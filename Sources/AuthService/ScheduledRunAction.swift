import AccountDomain
import PlatformSupport

/// The hourly EventBridge schedule's invocation of auth-link (docs/API.md, "Scheduled run"):
/// finish pending deletions and run due second passes within the deadline, then answer a
/// summary. Anyone who can invoke the function can send this event; all it causes is that
/// bounded, idempotent work.
struct ScheduledRunAction: Action {
    static let name = "scheduledRun"
    static let reserveMilliseconds: Int64 = 1_000

    /// EventBridge's scheduled event: `"source": "aws.events"`, `"detail-type": "Scheduled Event"`.
    static func matches(_ invocation: Invocation) -> Bool {
        let object = invocation.request.object
        return invocation.shape == .direct && object["source"]?.stringValue == "aws.events"
            && object["detail-type"]?.stringValue == "Scheduled Event"
    }

    init(_ request: Request) throws(ServiceError) {}

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        .scheduledRun(
            try d.accounts.runScheduledDeletions(
                purgeUntil: deadline.earlier(by: Self.reserveMilliseconds), deadline: deadline))
    }
}
