import CurlHTTP
import PlatformSupport
import Testing

@testable import AWSClients

/// Retries and deadlines against a scripted loopback stub (Stubs/aws_stub.py), one per test.
@Suite struct RetryTests {
    /// Small delays so the tests are quick; the budget (attempt count) is what is under test.
    let policy = RetryPolicy(maxAttempts: 3, baseDelayMilliseconds: 20, maxDelayMilliseconds: 100)
    let bucket = "signin-identities-local"

    func s3(_ stub: Stub, policy: RetryPolicy? = nil) throws -> (HTTPClient, S3Client) {
        let http = try HTTPClient()
        return (http, S3Client(http: http, config: try stub.config(), bucket: bucket, retry: policy ?? self.policy))
    }

    @Test func slowDownThenSuccessIsRetried() throws {
        let stub = try Stub(["*": ["503", "503", "200"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        let object = try #require(try s3.get("users/u/account/profile.json", deadline: .after(milliseconds: 10_000)))
        #expect(object.body == bytes("hello"))
        #expect(try stub.count() == 3)
        #expect(s3.attemptsSent == 3)
    }

    @Test func retriesAreBounded() throws {
        let stub = try Stub(["*": ["500"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        do {
            _ = try s3.get("users/u/x", deadline: .after(milliseconds: 10_000))
            Issue.record("500 forever succeeded")
        } catch {
            #expect(
                error.kind == .unavailable && error.code == "InternalError" && error.attempts == 3 && error.isRetryable)
        }
        #expect(try stub.count() == 3)
    }

    @Test func connectionResetIsRetried() throws {
        let stub = try Stub(["*": ["reset", "200"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        #expect(
            try s3.put(
                S3Put(key: "users/u/x", body: bytes("b"), contentType: "text/plain"),
                deadline: .after(milliseconds: 10_000)) != .preconditionFailed)
        #expect(try stub.count() == 2)
    }

    @Test func conditionalRequestConflictIsRetriedNotTakenAsExists() throws {
        let stub = try Stub(["*": ["409", "200"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        let outcome = try s3.put(
            S3Put(key: "identities/google/1", body: bytes("u"), contentType: "text/plain", condition: .ifNoneMatch),
            deadline: .after(milliseconds: 10_000))
        #expect(outcome == .stored(etag: "\"5d41402abc4b2a76b9719d911017c592\""))
        #expect(try stub.count() == 2)
    }

    @Test func meaningfulClientErrorsAreNotRetried() throws {
        let stub = try Stub([
            "/\("signin-identities-local")/users/u/denied": ["403"],
            "/signin-identities-local/identities/google/1": ["412"],
        ])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        do {
            _ = try s3.get("users/u/denied", deadline: .after(milliseconds: 10_000))
            Issue.record("403 succeeded")
        } catch {
            #expect(error.kind == .accessDenied && error.attempts == 1 && !error.isRetryable)
        }
        #expect(
            try s3.put(
                S3Put(key: "identities/google/1", body: [], contentType: "text/plain", condition: .ifNoneMatch),
                deadline: .after(milliseconds: 10_000)) == .preconditionFailed)
        #expect(try stub.count() == 2)
    }

    @Test func overlappedBatchRetriesOnlyWhatFailed() throws {
        let stub = try Stub(["/signin-identities-local/users/u/a": ["503", "200"], "*": ["200"]])
        defer { stub.stop() }
        let (http, s3) = try s3(stub)
        let results = s3.putAll(
            ["a", "b", "c"].map { S3Put(key: "users/u/\($0)", body: bytes($0), contentType: "text/plain") },
            deadline: .after(milliseconds: 10_000))
        for r in results {
            guard case .success(.stored) = r else {
                Issue.record("\(r)")
                continue
            }
        }
        #expect(try stub.count() == 4)
        #expect(http.roundCount == 2, "one overlapped round, then one retry round for the throttled put")
    }

    @Test func stallIsBoundedByTheDeadline() throws {
        let stub = try Stub(["*": ["stall"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        let (outcome, ms) = timed {
            Result { () throws(AWSError) in try s3.get("users/u/x", deadline: .after(milliseconds: 1_500)) }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("stalled request succeeded")
            return
        }
        #expect(error.kind == .unavailable)
        // Without the deadline, 3 attempts of up to 5 s each would run; the upper bound leaves
        // room for a loaded machine (suites run in parallel) while still proving the cut-off.
        #expect(ms >= 1_300 && ms < 3_000, "took \(ms) ms for a 1.5 s deadline")
        #expect(try stub.count() == 1, "no retry when the deadline leaves no time")
    }

    @Test func perAttemptTimeoutLeavesRoomForRetriesWithinTheDeadline() throws {
        let stub = try Stub(["*": ["stall", "stall", "200"]])
        defer { stub.stop() }
        let (_, s3) = try s3(stub)
        s3.requestTimeoutMilliseconds = 300
        let (object, ms) = try timed { try s3.get("users/u/x", deadline: .after(milliseconds: 3_000)) }
        #expect(object?.body == bytes("hello"))
        // Success at all proves the 300 ms per-attempt timeout: one full stall would use the whole
        // 3 s deadline. The bound stays below the deadline with room for a loaded machine.
        #expect(ms < 2_900, "took \(ms) ms")
        #expect(try stub.count() == 3)
    }

    @Test func expiredDeadlineSendsNothing() throws {
        let stub = try Stub(["*": ["200"]])
        defer { stub.stop() }
        let (http, s3) = try s3(stub)
        do {
            _ = try s3.get("users/u/x", deadline: .after(milliseconds: 20))
            Issue.record("sent with no time left")
        } catch {
            #expect(error.kind == .unavailable && error.attempts == 0)
        }
        #expect(http.requestCount == 0)
    }

    @Test func connectionRefusedIsUnavailableAfterRetries() throws {
        // A port that was free a moment ago: nothing listens, so every attempt is refused.
        let stub = try Stub(["*": ["200"]])
        let config = try stub.config()
        stub.stop()
        let http = try HTTPClient()
        let s3 = S3Client(http: http, config: config, bucket: bucket, retry: policy)
        do {
            _ = try s3.get("users/u/x", deadline: .after(milliseconds: 5_000))
            Issue.record("connected to a stopped stub")
        } catch {
            #expect(error.kind == .unavailable && error.attempts == 3)
        }
    }

    @Test func stsThrottlingIsRetried() throws {
        let stub = try Stub(["*": ["503", "503"]])
        defer { stub.stop() }
        let http = try HTTPClient()
        let sts = STSClient(
            http: http, config: try stub.config(),
            retry: RetryPolicy(maxAttempts: 2, baseDelayMilliseconds: 10, maxDelayMilliseconds: 20))
        do {
            _ = try sts.assumeRole(
                AssumeRoleRequest(roleARN: "arn:aws:iam::123456789012:role/r", sessionName: "s1", durationSeconds: 900),
                deadline: .after(milliseconds: 5_000))
            Issue.record("throttled forever succeeded")
        } catch {
            #expect(error.kind == .throttled && error.code == "SlowDown" && error.attempts == 2)
        }
        #expect(try stub.count() == 2)
    }
}
