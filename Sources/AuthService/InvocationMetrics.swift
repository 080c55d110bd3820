import StrictJSON

/// One CloudWatch embedded-metric-format record per invocation (docs/API.md, "Operations"):
/// what was asked (function, operation), how it ended (outcome and error code), how long it took
/// and what it cost upstream (requests, retries), plus the counts an operator alarms on or
/// charts: refresh-token reuse detected (a stolen-token signal), sign-ups, deletions, purchase
/// claims, unclassified failures (bugs). Dimensions are kept few (function × operation, and
/// none for the service-wide sums the template's alarms read) so the metric count stays small.
struct InvocationMetrics {
    enum Outcome: String {
        case success
        /// An expected refusal, answered in the envelope (`errorCode` says which).
        case refused
        /// A bug, reported to the Runtime API's error endpoint.
        case unclassified
    }

    static let countNames = [
        "ReuseDetected", "SignUps", "Deletions", "PurchaseClaims", "AppleRekeys", "IdentitySuspensions",
        "ConsentRescinded",
    ]

    var namespace: String
    var function: String
    var operation: String
    var outcome: Outcome
    var errorCode: String?
    var durationMilliseconds: Double
    var upstreamRequests: Int
    var upstreamRetries: Int
    /// Dedicated counts (`countNames`); absent ones are 0.
    var counts: [String: Int] = [:]
    var timestampMilliseconds: Int64

    /// The directive (`Namespace`, `Dimensions`, `Metrics`), the same for every record of a
    /// process: `ServiceHandler` builds it once and hands it in (building it cost ~35k instructions
    /// an invocation); nil builds it here.
    var directive: JSONValue?

    static func directive(namespace: String) -> JSONValue {
        var metrics: [JSONValue] = [
            ["Name": "Invocations", "Unit": "Count"], ["Name": "Refusals", "Unit": "Count"],
            ["Name": "Unclassified", "Unit": "Count"], ["Name": "Duration", "Unit": "Milliseconds"],
            ["Name": "UpstreamRequests", "Unit": "Count"], ["Name": "UpstreamRetries", "Unit": "Count"],
        ]
        metrics += Self.countNames.map { .object(JSONObject([("Name", .string($0)), ("Unit", "Count")])) }
        return .object(
            JSONObject([
                ("Namespace", .string(namespace)),
                ("Dimensions", .array([.array([.string("Function"), .string("Operation")]), .array([])])),
                ("Metrics", .array(metrics)),
            ]))
    }

    var record: JSONValue {
        let directive = self.directive ?? Self.directive(namespace: namespace)
        var o = JSONObject([
            (
                "_aws",
                .object(
                    JSONObject([("Timestamp", .int(timestampMilliseconds)), ("CloudWatchMetrics", .array([directive]))])
                )
            ),
            ("Function", .string(function)), ("Operation", .string(operation)), ("Outcome", .string(outcome.rawValue)),
            ("ErrorCode", errorCode.map(JSONValue.string) ?? .null),
            ("Invocations", .int(1)), ("Refusals", .int(outcome == .refused ? 1 : 0)),
            ("Unclassified", .int(outcome == .unclassified ? 1 : 0)),
            ("Duration", .number(String((durationMilliseconds * 100).rounded() / 100))),
            ("UpstreamRequests", .int(upstreamRequests)), ("UpstreamRetries", .int(upstreamRetries)),
        ])
        for name in Self.countNames { o[name] = .int(counts[name] ?? 0) }
        return .object(o)
    }
}
