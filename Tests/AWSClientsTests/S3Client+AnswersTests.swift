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

    /// A delimited page: keys and the common prefixes they roll up into, url-encoded as asked.
    @Test func aListingWithADelimiterReadsItsCommonPrefixes() throws {
        let body = """
            <ListBucketResult><EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>\
            <NextContinuationToken>t1</NextContinuationToken><Contents><Key>users/x</Key></Contents>\
            <CommonPrefixes><Prefix>users/a%20b/</Prefix></CommonPrefixes>\
            <CommonPrefixes><Prefix>users/c/</Prefix></CommonPrefixes></ListBucketResult>
            """
        let page = try S3Client.listing(from: HTTPResponse(status: 200, body: Array(body.utf8)))
        #expect(page.keys == ["users/x"] && page.commonPrefixes == ["users/a b/", "users/c/"])
        #expect(page.isTruncated && page.continuationToken == "t1")
        let empty = "<ListBucketResult><CommonPrefixes><Prefix></Prefix></CommonPrefixes></ListBucketResult>"
        #expect(throws: AWSError.self) {
            try S3Client.listing(from: HTTPResponse(status: 200, body: Array(empty.utf8)))
        }
    }
}
