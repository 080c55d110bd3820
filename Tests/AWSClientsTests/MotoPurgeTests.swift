import CurlHTTP
import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import AWSClients

/// What an account purge sends, against moto with signature checking on and the bucket
/// versioned: every version and delete marker listed, then deleted for good in batches.
@Suite struct MotoPurgeTests {
    /// 30 s for each call, not for the whole test: moto is shared with other suites running meanwhile.
    var deadline: Deadline { .after(milliseconds: 30_000) }

    func batch() throws -> AWSBatch { try Moto.batch() }

    func listAll(_ b: AWSBatch, _ prefix: String) throws -> [S3ObjectVersion] {
        var all: [S3ObjectVersion] = []
        var marker: S3VersionListing.Marker?
        for _ in 0..<20 {
            guard
                case .success(.versions(let page)) = b.run(
                    [.s3ListVersions(prefix: prefix, after: marker)], deadline: deadline)[0]
            else {
                throw StandInError(description: "list versions failed")
            }
            all += page.versions
            guard let next = page.next else { return all }
            marker = next
        }
        throw StandInError(description: "too many pages")
    }

    @Test func everyVersionAndDeleteMarkerIsListedAndDeletedForGood() throws {
        let b = try batch()
        let prefix = uniquePrefix("purge")
        // Two versions of one key, a deleted key (version + delete marker), and keys the app may write.
        for (key, body) in [
            ("photos/a.jpg", "v1"), ("photos/a.jpg", "v2"), ("metadata/gone.json", "x"), ("photos/b & <c>.jpg", "y"),
        ] {
            _ = try b.s3.put(
                S3Put(
                    key: prefix + key.replacingOccurrences(of: " & <c>", with: "-c"), body: bytes(body),
                    contentType: "text/plain"), deadline: deadline)
        }
        try b.s3.delete(prefix + "metadata/gone.json", deadline: deadline)
        let versions = try listAll(b, prefix)
        #expect(versions.count == 5 && versions.filter(\.isDeleteMarker).count == 1)
        #expect(Set(versions.map(\.versionID)).count == 5 && !versions.contains { $0.versionID == "null" })
        guard case .success(.deletedVersions(let outcome)) = b.run([.s3DeleteVersions(versions)], deadline: deadline)[0]
        else {
            Issue.record("DeleteObjects failed")
            return
        }
        #expect(outcome.deleted == 5 && outcome.failed.isEmpty)
        #expect(try listAll(b, prefix).isEmpty, "nothing left, not even delete markers")
    }

    @Test func pagesFollowTheMarkersAndBatchesAreBounded() throws {
        let b = try batch()
        let prefix = uniquePrefix("pages")
        let puts = (0..<1_050).map {
            AWSCall.s3Put(S3Put(key: prefix + "photos/\($0).jpg", body: bytes("\($0)"), contentType: "text/plain"))
        }
        for start in stride(from: 0, to: puts.count, by: 50) {
            let answers = b.run(Array(puts[start..<min(start + 50, puts.count)]), deadline: deadline)
            #expect(answers.allSatisfy { if case .success = $0 { true } else { false } }, "PUTs from \(start) stored")
        }
        guard
            case .success(.versions(let first)) = b.run(
                [.s3ListVersions(prefix: prefix, after: nil)], deadline: deadline)[0]
        else {
            Issue.record("list failed")
            return
        }
        #expect(first.versions.count == 1000 && first.next != nil)
        #expect(try listAll(b, prefix).count == 1_050)
        guard
            case .failure(let tooMany) = b.run(
                [.s3DeleteVersions(Array(repeating: first.versions[0], count: 1001))], deadline: deadline)[0]
        else {
            Issue.record("a batch over 1,000 was sent")
            return
        }
        #expect(tooMany.kind == .invalidRequest && tooMany.attempts == 0)
        guard case .failure(let whole) = b.run([.s3ListVersions(prefix: "", after: nil)], deadline: deadline)[0] else {
            Issue.record("a listing of the whole bucket was sent")
            return
        }
        #expect(whole.kind == .invalidRequest)
        let all = try listAll(b, prefix)
        let results = b.run(
            [.s3DeleteVersions(Array(all[0..<1000])), .s3DeleteVersions(Array(all[1000...]))], deadline: deadline)
        for r in results {
            guard case .success(.deletedVersions(let o)) = r, o.failed.isEmpty else {
                Issue.record("\(r)")
                return
            }
        }
        #expect(try listAll(b, prefix).isEmpty)
    }
}

@Suite struct MotoSSMTests {
    @Test func aSecureStringIsReadDecryptedAndAMissingOneIsNotFound() throws {
        let child = try Moto.shared.get()
        let name = "/signin-tests/apple-key-\(UUID().uuidString.lowercased())"
        let value = "-----BEGIN PRIVATE KEY-----\nnot a real key\n-----END PRIVATE KEY-----"
        let ok = try child.ask(
            JSONValue.object(JSONObject([("ssm_put", .string(name)), ("value", .string(value))])).serializedString())
        #expect(ok["ok"] == .bool(true))
        let http = try HTTPClient()
        let e = try Moto.env()
        var config = try Moto.config()
        config.ssmEndpoint = try AWSEndpoint(url: e.endpoint, variable: "AWS_ENDPOINT_URL", pathStyle: false)
        let ssm = SSMClient(http: http, config: config)
        #expect(try ssm.parameter(named: name, deadline: .after(milliseconds: 10_000)) == value)
        do {
            _ = try ssm.parameter(named: name + "-missing", deadline: .after(milliseconds: 10_000))
            Issue.record("a missing parameter was found")
        } catch {
            #expect(error.code == "ParameterNotFound" && !error.description.contains("not a real key"))
        }
        #expect(throws: AWSError.self) {
            _ = try ssm.parameter(named: "bad name!", deadline: .after(milliseconds: 1_000))
        }
    }
}
