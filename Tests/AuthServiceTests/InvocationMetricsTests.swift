import StrictJSON
import Testing

@testable import AuthService

/// The embedded-metric-format record (CloudWatch's specification: `_aws.Timestamp`, one directive
/// with `Namespace`, `Dimensions` and `Metrics`, and a value for every metric and dimension).
@Suite struct InvocationMetricsTests {
    let metrics = InvocationMetrics(
        namespace: "SigninBackend", function: "auth-refresh", operation: "refresh", outcome: .refused,
        errorCode: "SESSION_INVALID", durationMilliseconds: 12.345, upstreamRequests: 3, upstreamRetries: 1,
        counts: ["ReuseDetected": 1], timestampMilliseconds: 1_800_000_000_000)

    @Test func theRecordFollowsTheSpecification() throws {
        let r = metrics.record
        let directive = try #require(r["_aws"]?["CloudWatchMetrics"]?.arrayValue?.first)
        #expect(r["_aws"]?["Timestamp"] == .int(1_800_000_000_000))
        #expect(directive["Namespace"] == "SigninBackend")
        let names = try #require(directive["Metrics"]?.arrayValue).compactMap { $0["Name"]?.stringValue }
        for name in names { #expect(r[name]?.int64Value != nil || r[name] == .number("12.35"), "\(name) has a value") }
        for dimension in ["Function", "Operation"] { #expect(r[dimension]?.stringValue != nil) }
        #expect(r["Refusals"] == .int(1) && r["Unclassified"] == .int(0) && r["ReuseDetected"] == .int(1))
        #expect(r["SignUps"] == .int(0) && r["ErrorCode"] == "SESSION_INVALID" && r["Outcome"] == "refused")
        #expect(try JSONParser.parse(r.serialized()) == r, "one line of valid JSON")
    }

    @Test func auditRecordsNameTheAccountOnly() {
        let audit = AuditRecord(
            operation: "link", serviceUserID: "0f8fad5b-d9cb-469f-a165-70867728950e",
            provider: "google", outcome: "linked")
        #expect(
            audit.record["audit"]?.objectValue?.keys.sorted() == ["operation", "outcome", "provider", "serviceUserID"])
    }

    @Test func theNamespaceFollowsCloudWatchsRule() throws {
        let base = ServiceConfigurationTests()
        #expect(try base.configuration().metricsNamespace == "SigninBackend")
        #expect(try base.configuration(["METRICS_NAMESPACE": "Photo/Signin-1"]).metricsNamespace == "Photo/Signin-1")
        for bad in ["AWS/Lambda", "has space", String(repeating: "a", count: 256)] {
            #expect(base.failure(["METRICS_NAMESPACE": bad])?.variable == "METRICS_NAMESPACE", "\(bad)")
        }
    }
}
