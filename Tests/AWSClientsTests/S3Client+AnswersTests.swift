import CurlHTTP
import Testing

@testable import AWSClients

@Suite struct S3ClientAnswersTests {
    func deleteResult(errors: Int) -> HTTPResponse {
        let error = "<Error><Key>users/u/a.json</Key><VersionId>v1</VersionId><Code>AccessDenied</Code></Error>"
        let body = "<DeleteResult>" + String(repeating: error, count: errors) + "</DeleteResult>"
        return HTTPResponse(status: 200, body: Array(body.utf8))
    }

    @Test func aDeleteResultCountsTheObjectsItDidNotList() throws {
        let outcome = try S3Client.batchDeleteOutcome(from: deleteResult(errors: 1), count: 3)
        #expect(outcome.deleted == 2 && outcome.failed.map(\.code) == ["AccessDenied"])
    }

    /// The fuzz target's property (Sources/fuzz/XMLAnswerFuzz.swift): 0 ≤ deleted ≤ sent. An
    /// answer listing more failures than objects sent used to count negative deletions.
    @Test func aDeleteResultWithMoreErrorsThanObjectsSentIsRefused() {
        #expect(throws: AWSError.self) { try S3Client.batchDeleteOutcome(from: self.deleteResult(errors: 3), count: 2) }
        #expect((try? S3Client.batchDeleteOutcome(from: deleteResult(errors: 2), count: 2))?.deleted == 0)
    }
}
