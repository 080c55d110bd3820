import CurlHTTP
import Foundation
import PlatformSupport
import Testing

@testable import AWSClients

/// Every operation against moto_server with signature checking on. The stand-in is started once
/// for the run; a test that cannot reach it fails.
@Suite struct MotoS3Tests {
    let deadline = Deadline.after(milliseconds: 20_000)

    func client(secret: String? = nil, bucket: String? = nil) throws -> (HTTPClient, S3Client) {
        let http = try HTTPClient()
        let env = try Moto.env()
        return (
            http, S3Client(http: http, config: try Moto.config(secretOverride: secret), bucket: bucket ?? env.bucket)
        )
    }

    @Test func putGetHeadDeleteRoundTrip() throws {
        let (_, s3) = try client()
        let key = uniquePrefix("roundtrip") + "account/profile.json"
        let body = bytes("{\"version\":1,\"displayName\":\"Zoë\"}")
        let outcome = try s3.put(
            S3Put(key: key, body: body, contentType: "application/json", metadata: [("schema", "1")]),
            deadline: deadline)
        guard case .stored(let etag) = outcome else {
            Issue.record("not stored: \(outcome)")
            return
        }
        #expect(etag.hasPrefix("\"") && etag.count > 2)

        let object = try #require(try s3.get(key, deadline: deadline))
        #expect(object.body == body)
        #expect(object.etag == etag)
        #expect(object.contentType == "application/json")
        #expect(object.metadata.contains { $0.0 == "schema" && $0.1 == "1" })

        let head = try #require(try s3.head(key, deadline: deadline))
        #expect(head.etag == etag && head.size == body.count && head.contentType == "application/json")

        try s3.delete(key, deadline: deadline)
        #expect(try s3.get(key, deadline: deadline) == nil)
        #expect(try s3.head(key, deadline: deadline) == nil)
        try s3.delete(key, deadline: deadline)  // deleting what is gone is fine
    }

    @Test func zeroByteMarkerAndEmptyBody() throws {
        let (_, s3) = try client()
        let marker = uniquePrefix("marker")
        #expect(
            try s3.put(
                S3Put(key: marker, body: [], contentType: "application/x-directory", condition: .ifNoneMatch),
                deadline: deadline) != .preconditionFailed)
        let head = try #require(try s3.head(marker, deadline: deadline))
        #expect(head.size == 0 && head.contentType == "application/x-directory")
        #expect(try s3.get(marker, deadline: deadline)?.body == [])
    }

    @Test func createOnlyWithIfNoneMatch() throws {
        let (_, s3) = try client()
        let key = uniquePrefix("identities") + "google/1234567890"
        let first = try s3.put(
            S3Put(key: key, body: bytes("uuid-one"), contentType: "text/plain", condition: .ifNoneMatch),
            deadline: deadline)
        guard case .stored = first else {
            Issue.record("first create: \(first)")
            return
        }
        let second = try s3.put(
            S3Put(key: key, body: bytes("uuid-two"), contentType: "text/plain", condition: .ifNoneMatch),
            deadline: deadline)
        #expect(second == .preconditionFailed)
        #expect(try s3.get(key, deadline: deadline)?.body == bytes("uuid-one"))
    }

    @Test func replaceOnlyWithIfMatch() throws {
        let (_, s3) = try client()
        let key = uniquePrefix("ifmatch") + "providers.json"
        guard
            case .stored(let v1) = try s3.put(
                S3Put(key: key, body: bytes("v1"), contentType: "application/json"), deadline: deadline)
        else {
            Issue.record("seed")
            return
        }
        guard
            case .stored(let v2) = try s3.put(
                S3Put(key: key, body: bytes("v2"), contentType: "application/json", condition: .ifMatch(v1)),
                deadline: deadline)
        else {
            Issue.record("If-Match with the current ETag was refused")
            return
        }
        #expect(v2 != v1)
        // A writer holding the old ETag loses.
        #expect(
            try s3.put(
                S3Put(key: key, body: bytes("v3"), contentType: "application/json", condition: .ifMatch(v1)),
                deadline: deadline) == .preconditionFailed)
        #expect(try s3.get(key, deadline: deadline)?.body == bytes("v2"))
        // If-Match on a key that is gone (moto answers 404 NoSuchKey, AWS 412): both mean the same.
        let missing = uniquePrefix("ifmatch-missing") + "providers.json"
        #expect(
            try s3.put(
                S3Put(key: missing, body: bytes("x"), contentType: "application/json", condition: .ifMatch(v2)),
                deadline: deadline) == .preconditionFailed)
        #expect(try s3.get(missing, deadline: deadline) == nil)
    }

    @Test func overlappedPutAllAndGetAll() throws {
        let (http, s3) = try client()
        let prefix = uniquePrefix("batch")
        let puts = (0..<5).map { S3Put(key: prefix + "k\($0)", body: bytes("body \($0)"), contentType: "text/plain") }
        let roundsBefore = http.roundCount
        let stored = s3.putAll(puts, deadline: deadline)
        #expect(http.roundCount == roundsBefore + 1, "five puts went out as one overlapped round")
        for r in stored {
            guard case .success(.stored) = r else {
                Issue.record("put \(r)")
                continue
            }
        }

        let keys = puts.map(\.key) + [prefix + "missing", "bad key"]
        let got = s3.getAll(keys, deadline: deadline)
        #expect(got.count == 7)
        for i in 0..<5 { #expect((try? got[i].get())??.body == bytes("body \(i)")) }
        if case .success(.some) = got[5] { Issue.record("missing key read as present") }
        if case .failure(let e) = got[5] { Issue.record("missing key failed: \(e)") }
        guard case .failure(let e) = got[6] else {
            Issue.record("bad key accepted")
            return
        }
        #expect(e.kind == .invalidRequest && e.attempts == 0)
    }

    @Test func listFollowsContinuation() throws {
        let (_, s3) = try client()
        let prefix = uniquePrefix("list")
        let keys = (0..<5).map { prefix + "photos/p\($0)" } + [prefix + "photosx/other"]
        for r in s3.putAll(
            keys.map { S3Put(key: $0, body: [], contentType: "application/octet-stream") }, deadline: deadline)
        { _ = try r.get() }
        let listed = try s3.list(prefix: prefix + "photos/", deadline: deadline, pageSize: 2)
        #expect(listed == Array(keys.prefix(5)))
        #expect(try s3.list(prefix: uniquePrefix("empty"), deadline: deadline).isEmpty)
        s3.maxListPages = 2
        #expect(throws: AWSError.self) { try s3.list(prefix: prefix + "photos/", deadline: deadline, pageSize: 2) }
    }

    @Test func keysOutsideTheRuleAreRefusedBeforeSending() throws {
        let (http, s3) = try client()
        let bad = [
            "../etc/passwd", "users/a b", "users//x", "", "/abs", "users/./x", "identities/google/..", "ü",
            String(repeating: "k", count: 1025),
        ]
        for key in bad {
            #expect(throws: AWSError.self) { _ = try s3.get(key, deadline: deadline) }
            do { _ = try s3.put(S3Put(key: key, body: [], contentType: "text/plain"), deadline: deadline) } catch {
                #expect(error.kind == .invalidRequest)
            }
            do { try s3.delete(key, deadline: deadline) } catch {
                #expect(error.kind == .invalidRequest && error.attempts == 0)
            }
            do { _ = try s3.head(key, deadline: deadline) } catch { #expect(error.kind == .invalidRequest) }
        }
        do { _ = try s3.list(prefix: "users/../", deadline: deadline) } catch { #expect(error.kind == .invalidRequest) }
        #expect(http.requestCount == 0, "a refused key must not produce a request")
        #expect(s3.attemptsSent == 0)
    }

    @Test func wrongSecretIsRefusedByMoto() throws {
        let (_, s3) = try client(secret: "definitely-not-the-secret")
        do {
            _ = try s3.get(uniquePrefix("denied") + "x", deadline: deadline)
            Issue.record("moto accepted a wrong signature")
        } catch {
            #expect(error.kind == .accessDenied)
            #expect(error.code == "SignatureDoesNotMatch")
            #expect(error.attempts == 1, "a meaningful 4xx is never retried")
            #expect(!"\(error)".contains("definitely-not-the-secret"))
        }
        do {
            _ = try s3.put(
                S3Put(key: uniquePrefix("denied") + "y", body: bytes("x"), contentType: "text/plain"),
                deadline: deadline)
            Issue.record("moto accepted a wrong signature on PUT")
        } catch {
            #expect(error.kind == .accessDenied)
        }
    }

    @Test func missingBucketIsAnErrorNotAbsence() throws {
        let (_, s3) = try client(bucket: "no-such-bucket-\(UUID().uuidString.lowercased().prefix(8))")
        do {
            _ = try s3.get("users/x", deadline: deadline)
            Issue.record("missing bucket read as a missing key")
        } catch {
            #expect(error.kind == .notFound && error.code == "NoSuchBucket")
        }
    }
}

@Suite struct MotoSTSTests {
    let deadline = Deadline.after(milliseconds: 20_000)

    @Test func assumeRoleWithSessionPolicyThenUseTheCredentials() throws {
        let env = try Moto.env()
        let http = try HTTPClient()
        let sts = STSClient(http: http, config: try Moto.config())
        let uuid = UUID().uuidString.lowercased()
        let policy = """
            {"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject"],"Resource":["arn:aws:s3:::\(env.bucket)/users/\(uuid)/photos/*"]}]}
            """
        let creds = try sts.assumeRole(
            AssumeRoleRequest(
                roleARN: env.roleARN, sessionName: "u-" + uuid.prefix(8), durationSeconds: 3600, policy: policy,
                sourceIdentity: "signin", tags: [("uuid", uuid), ("note", "a b+c")]), deadline: deadline)
        #expect(creds.accessKeyID.hasPrefix("ASIA"))
        #expect(!creds.secretAccessKey.isEmpty && !creds.sessionToken.isEmpty)
        #expect(ISO8601Check.isISO(creds.expiration))
        #expect(sts.attemptsSent == 1)

        // The temporary credentials sign with X-Amz-Security-Token, and moto accepts them.
        let asUser = S3Client(
            http: http, config: try Moto.config(credentials: creds.awsCredentials), bucket: env.bucket)
        let key = "users/\(uuid)/photos/p1.jpg"
        guard
            case .stored = try asUser.put(
                S3Put(key: key, body: bytes("jpeg"), contentType: "image/jpeg"), deadline: deadline)
        else {
            Issue.record("put with session credentials")
            return
        }
        #expect(try asUser.get(key, deadline: deadline)?.body == bytes("jpeg"))
    }

    @Test func wrongSecretAndBadArgumentsAreRefused() throws {
        let env = try Moto.env()
        let http = try HTTPClient()
        let request = AssumeRoleRequest(roleARN: env.roleARN, sessionName: "s-denied", durationSeconds: 900)
        let denied = STSClient(http: http, config: try Moto.config(secretOverride: "wrong-secret"))
        do {
            _ = try denied.assumeRole(request, deadline: deadline)
            Issue.record("moto accepted a wrong STS signature")
        } catch {
            #expect(error.kind == .accessDenied)
            #expect(error.attempts == 1)
        }
        let sts = STSClient(http: http, config: try Moto.config())
        var bad = request
        bad.durationSeconds = 60
        #expect(throws: AWSError.self) { _ = try sts.assumeRole(bad, deadline: deadline) }
        #expect(sts.attemptsSent == 0)
    }
}

@Suite struct MotoBatchTests {
    @Test func s3AndSTSCallsGoOutInOneRound() throws {
        let env = try Moto.env()
        let http = try HTTPClient()
        let config = try Moto.config()
        let batch = AWSBatch(
            s3: S3Client(http: http, config: config, bucket: env.bucket), sts: STSClient(http: http, config: config))
        let prefix = uniquePrefix("batch-mixed")
        _ = try batch.s3.put(
            S3Put(key: prefix + "old", body: bytes("old"), contentType: "text/plain"),
            deadline: .after(milliseconds: 20_000))
        let rounds = http.roundCount
        let results = batch.run(
            [
                .s3Put(
                    S3Put(key: prefix + "new", body: bytes("new"), contentType: "text/plain", condition: .ifNoneMatch)),
                .s3Get(key: prefix + "missing"),
                .assumeRole(AssumeRoleRequest(roleARN: env.roleARN, sessionName: "batch-1", durationSeconds: 900)),
                .s3Delete(key: prefix + "old", condition: .none),
                .s3Get(key: "not a key"),
            ], deadline: .after(milliseconds: 20_000))
        #expect(http.roundCount == rounds + 1, "one overlapped round for S3 and STS together")
        guard case .success(.stored(.stored)) = results[0] else {
            Issue.record("put: \(results[0])")
            return
        }
        guard case .success(.object(nil)) = results[1] else {
            Issue.record("get missing: \(results[1])")
            return
        }
        guard case .success(.credentials(let creds)) = results[2] else {
            Issue.record("assume role: \(results[2])")
            return
        }
        #expect(creds.accessKeyID.hasPrefix("ASIA"))
        guard case .success(.deleted(.deleted)) = results[3] else {
            Issue.record("delete: \(results[3])")
            return
        }
        guard case .failure(let refused) = results[4] else {
            Issue.record("bad key sent")
            return
        }
        #expect(refused.kind == .invalidRequest && refused.attempts == 0)
        #expect(try batch.s3.get(prefix + "old", deadline: .after(milliseconds: 20_000)) == nil)
    }
}

enum ISO8601Check {
    static func isISO(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return b.count >= 20 && b[4] == UInt8(ascii: "-") && b[10] == UInt8(ascii: "T")
    }
}
