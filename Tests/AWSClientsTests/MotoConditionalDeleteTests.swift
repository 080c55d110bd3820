import CurlHTTP
import Foundation
import PlatformSupport
import Testing

@testable import AWSClients

/// The calls the account flows use to remove exactly what they read (identity files), against moto
/// with signature checking on. The stand-in's bucket is versioned, as the template's is.
@Suite struct MotoConditionalDeleteTests {
    let deadline = Deadline.after(milliseconds: 20_000)

    func client() throws -> S3Client {
        S3Client(http: try HTTPClient(), config: try Moto.config(), bucket: try Moto.env().bucket)
    }

    @Test func deletingByVersionLeavesALaterObjectUnderTheSameKeyAlone() throws {
        let s3 = try client()
        let key = uniquePrefix("by-version") + "identity"
        _ = try s3.put(
            S3Put(
                key: key, body: bytes("uuid"), contentType: "text/plain", condition: .ifNoneMatch,
                metadata: [("link-id", "aa")]), deadline: deadline)
        let first = try #require(try s3.get(key, deadline: deadline))
        let version = try #require(first.versionID, "the stand-in's bucket is versioned")
        #expect(first.metadata("link-id") == "aa")
        try s3.delete(key, condition: .version(version), deadline: deadline)
        #expect(try s3.get(key, deadline: deadline) == nil)
        // Re-created with the same bytes (so the same ETag): a late delete of the old version
        // must not touch it.
        _ = try s3.put(
            S3Put(
                key: key, body: bytes("uuid"), contentType: "text/plain", condition: .ifNoneMatch,
                metadata: [("link-id", "bb")]), deadline: deadline)
        #expect(try s3.delete(key, condition: .version(version), deadline: deadline) == .deleted)
        let second = try #require(try s3.get(key, deadline: deadline))
        #expect(second.metadata("link-id") == "bb" && second.versionID != version)
    }

    @Test func deletingWithIfMatchNeedsTheSameETag() throws {
        let s3 = try client()
        let key = uniquePrefix("if-match") + "identity"
        guard
            case .stored(let etag) = try s3.put(
                S3Put(key: key, body: bytes("one"), contentType: "text/plain"), deadline: deadline)
        else {
            Issue.record("not stored")
            return
        }
        #expect(
            try s3.delete(key, condition: .ifMatch("\"0123456789abcdef0123456789abcdef\""), deadline: deadline)
                == .preconditionFailed)
        #expect(try s3.get(key, deadline: deadline) != nil)
        #expect(try s3.delete(key, condition: .ifMatch(etag), deadline: deadline) == .deleted)
        #expect(try s3.get(key, deadline: deadline) == nil)
        #expect(try s3.delete(key, condition: .ifMatch(etag), deadline: deadline) == .deleted, "nothing left to delete")
    }

    @Test func taggedPutsAndOnePageOfListingInABatch() throws {
        let env = try Moto.env()
        let http = try HTTPClient()
        let config = try Moto.config()
        let batch = AWSBatch(
            s3: S3Client(http: http, config: config, bucket: env.bucket), sts: STSClient(http: http, config: config))
        let prefix = uniquePrefix("sessions")
        let puts = (0..<3).map {
            AWSCall.s3Put(
                S3Put(
                    key: prefix + "s\($0).json", body: bytes("{}"), contentType: "application/json",
                    tags: [("record", "session")]))
        }
        for r in batch.run(puts, deadline: deadline) {
            guard case .success(.stored(.stored)) = r else {
                Issue.record("put: \(r)")
                return
            }
        }
        let listed = batch.run(
            [
                .s3List(prefix: prefix),
                .s3Put(S3Put(key: prefix + "bad", body: [], contentType: "text/plain", tags: [("a b", "c")])),
            ], deadline: deadline)
        guard case .success(.listing(let page)) = listed[0] else {
            Issue.record("list: \(listed[0])")
            return
        }
        #expect(page.keys == ["s0.json", "s1.json", "s2.json"].map { prefix + $0 } && !page.isTruncated)
        // start-after (the scheduled run's walk over deletions/): signed with its slashes encoded.
        let after = batch.run([.s3List(prefix: prefix, startAfter: prefix + "s0.json")], deadline: deadline)
        guard case .success(.listing(let rest)) = after[0] else {
            Issue.record("list after: \(after[0])")
            return
        }
        #expect(rest.keys == ["s1.json", "s2.json"].map { prefix + $0 })
        guard case .failure(let refused) = listed[1] else {
            Issue.record("a tag outside [A-Za-z0-9._-] was sent")
            return
        }
        #expect(refused.kind == .invalidRequest && refused.attempts == 0)
    }
}
