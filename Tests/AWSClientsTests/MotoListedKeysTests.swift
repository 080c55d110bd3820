import CurlHTTP
import Foundation
import PlatformSupport
import SigV4
import Testing

@testable import AWSClients

/// The purge's calls for keys a user's credentials may write (any key under `photos/`) and for
/// their unfinished multipart uploads, against moto with signature checking on. The user's
/// writes go out as raw signed requests: this service's own S3Client refuses such keys.
@Suite struct MotoListedKeysTests {
    /// 30 s for each call, not for the whole test: moto is shared with other suites running meanwhile.
    var deadline: Deadline { .after(milliseconds: 30_000) }

    func batch() throws -> AWSBatch { try Moto.batch() }

    /// A signed request with any key, as a user's own credentials would send it.
    func raw(
        _ s3: S3Client, _ method: String, _ key: String, query: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) throws -> HTTPResponse {
        let request = OperationRequest(
            method: method, path: s3.pathPrefix + "/" + SigV4.encodePath(key), query: query, body: body)
        let call = PreparedCall(transport: s3.transport, request: .success(request)) { $0 }
        return try PreparedCall.run([call], deadline: deadline)[0].get()
    }

    func listAll(_ b: AWSBatch, _ prefix: String) throws -> [S3ObjectVersion] {
        guard
            case .success(.versions(let page)) = b.run(
                [.s3ListVersions(prefix: prefix, after: nil)], deadline: deadline)[0]
        else { throw StandInError(description: "list versions failed") }
        return page.versions
    }

    /// moto answers a PUT of a key holding LF (so CR LF too) with 404 (its URL routing stops at the decoded
    /// newline), so LF is left to the unit tests (`DeletionRacesTests`, against S3's XML rules).
    /// moto also ignores `encoding-type=url` and writes these keys raw into its XML (S3 encodes
    /// them as asked); the client reads both.
    static let keys = [
        "photos/cr\rhere.jpg", "photos/tab\there.jpg", "photos/soh\u{1}here.jpg",
        "photos/amp&<>.jpg", "photos/plain.jpg",
    ]

    @Test func keysWithControlCharactersAreListedExactlyAndDeletedForGood() throws {
        let b = try batch()
        let prefix = uniquePrefix("listed")
        for key in Self.keys {
            do {
                let put = try raw(b.s3, "PUT", prefix + key, body: bytes("x"))
                #expect(put.status == 200, "PUT \(key.debugDescription): \(put.status)")
            } catch { Issue.record("PUT \(key.debugDescription): \(error)") }
        }
        let versions = try listAll(b, prefix)
        #expect(Set(versions.map(\.key)) == Set(Self.keys.map { prefix + $0 }), "\(versions.map(\.key))")
        // What the purge sends: the keys XML can carry in one batch, escaped; the rest one by one.
        let batchable = versions.filter { XMLText.canCarry($0.key) }
        let singles = versions.filter { !XMLText.canCarry($0.key) }
        #expect(singles.count == 1)
        let results = b.run(
            [.s3DeleteVersions(batchable)] + singles.map { .s3DeleteListedVersion($0) }, deadline: deadline)
        guard case .success(.deletedVersions(let outcome)) = results[0] else {
            Issue.record("DeleteObjects: \(results[0])")
            return
        }
        #expect(outcome.failed.isEmpty)
        for r in results.dropFirst() {
            guard case .success(.deleted(.deleted)) = r else {
                Issue.record("DELETE ?versionId=: \(r)")
                continue
            }
        }
        #expect(try listAll(b, prefix).isEmpty, "every key gone, all versions")
        // A batch holding a key XML cannot carry is never sent (S3 would refuse the whole batch).
        guard case .failure(let refused) = b.run([.s3DeleteVersions(singles)], deadline: deadline)[0] else {
            Issue.record("a batch with a U+0001 key was sent")
            return
        }
        #expect(refused.kind == .invalidRequest && refused.attempts == 0)
    }

    @Test func unfinishedMultipartUploadsAreListedUnderThePrefixAndAborted() throws {
        let b = try batch()
        let prefix = uniquePrefix("uploads")
        let other = uniquePrefix("uploads-other")
        // Issue 23, defect 1: a `..` segment is addressed by its path as signed (curl would remove it).
        let dotted = prefix + "photos/x/../d.mov"
        for key in [prefix + "photos/a.mov", prefix + "photos/b\r.mov", dotted, other + "photos/c.mov"] {
            let started = try raw(b.s3, "POST", key, query: [("uploads", "")])
            #expect(started.status == 200)
        }
        guard
            case .success(.uploads(let listed)) = b.run(
                [.s3ListUploads(prefix: prefix, after: nil)], deadline: deadline)[0]
        else {
            Issue.record("ListMultipartUploads failed")
            return
        }
        #expect(Set(listed.uploads.map(\.key)) == [prefix + "photos/a.mov", prefix + "photos/b\r.mov", dotted])
        #expect(listed.next == nil)
        let aborted = b.run(listed.uploads.map { .s3AbortUpload($0) }, deadline: deadline)
        for r in aborted {
            guard case .success(.deleted(.deleted)) = r else {
                Issue.record("AbortMultipartUpload: \(r)")
                continue
            }
        }
        guard
            case .success(.uploads(let after)) = b.run(
                [.s3ListUploads(prefix: prefix, after: nil)], deadline: deadline)[0]
        else { return }
        #expect(after.uploads.isEmpty)
        // Aborting again (an upload already gone) is as good as done.
        guard case .success(.deleted(.deleted)) = b.run([.s3AbortUpload(listed.uploads[0])], deadline: deadline)[0]
        else {
            Issue.record("a second abort failed")
            return
        }
        guard
            case .success(.uploads(let rest)) = b.run([.s3ListUploads(prefix: other, after: nil)], deadline: deadline)[
                0]
        else { return }
        for u in rest.uploads { _ = b.run([.s3AbortUpload(u)], deadline: deadline) }
    }
}
