import StrictJSON

/// One CloudWatch embedded-metric-format record per invocation (docs/API.md, "Operations"):
/// what was asked (function, operation), how it ended (outcome and error code), how long it took
/// and what it cost upstream (requests, retries), plus the counts an operator alarms on or
/// charts: refresh-token reuse detected (a stolen-token signal), sign-ups, deletions, purchase
/// claims, unclassified failures (bugs). Dimensions are kept few (function × operation, and
/// none for the service-wide sums the template's alarms read) so the metric count stays small.
package struct InvocationMetrics {
    package enum Outcome: String {
        case success
        /// An expected refusal, answered in the envelope (`errorCode` says which).
        case refused
        /// A bug, reported to the Runtime API's error endpoint.
        case unclassified
    }

    package static let countNames = [
        "ReuseDetected", "SignUps", "Deletions", "PurchaseClaims", "AppleRekeys", "IdentitySuspensions",
        "ConsentRescinded",
    ]

    package var namespace: String
    package var function: String
    package var operation: String
    package var outcome: Outcome
    package var errorCode: String?
    package var durationMilliseconds: Double
    package var upstreamRequests: Int
    package var upstreamRetries: Int
    /// Dedicated counts (`countNames`); absent ones are 0.
    package var counts: [String: Int] = [:]
    package var timestampMilliseconds: Int64

    /// The directive (`Namespace`, `Dimensions`, `Metrics`), the same for every record of a
    /// process: `ServiceHandler` builds it once and hands it in (building it cost ~35k instructions
    /// an invocation); nil builds it here.
    package var directive: JSONValue?

    package static func directive(namespace: String) -> JSONValue {
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

    package var record: JSONValue {
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
