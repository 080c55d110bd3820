import CurlHTTP
import StrictJSON
import Testing

@testable import SignInWithApple

/// The app-transfer client's pace and its reading of Apple's answers (the loop itself runs
/// against the loopback Apple in AppleMigrationClientTests and Tests/integration/test_apple_transfer.py).
@Suite struct AppleMigrationPacerTests {
    @Test func batchesAreSpacedByTheirShareOfTheRate() {
        var pacer = AppleMigrationPacer(requestsPerSecond: 10)
        #expect(pacer.wait(for: 5, nowMs: 1_000) == 0)
        #expect(pacer.wait(for: 5, nowMs: 1_100) == 400, "5 requests at 10/s take 500 ms")
        #expect(pacer.wait(for: 1, nowMs: 3_000) == 0, "idle time is not saved up")
    }

    @Test func a429HalvesThePaceAndHonoursRetryAfterThenCleanBatchesRestoreIt() {
        var pacer = AppleMigrationPacer(requestsPerSecond: 8)
        _ = pacer.wait(for: 1, nowMs: 0)
        pacer.throttled(nowMs: 100, retryAfterMs: 2_000)
        #expect(pacer.rate == 4)
        #expect(pacer.wait(for: 1, nowMs: 200) == 1_900, "nothing before Retry-After has passed")
        for _ in 0..<20 { pacer.clean() }
        #expect(pacer.rate == 8, "never above the operator's pace")
        for _ in 0..<10 { pacer.throttled(nowMs: 0, retryAfterMs: 0) }
        #expect(pacer.rate == AppleMigrationPacer.minimumRate)
    }

    static func answer(
        _ status: Int, _ body: String, headers: [(String, String)] = []
    ) -> Result<HTTPResponse, HTTPError> {
        .success(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
    }

    static func verdict(_ result: Result<HTTPResponse, HTTPError>) -> String {
        switch AppleMigrationVerdict<String>(result, read: { $0["transfer_sub"]?.stringValue }) {
        case .answer(.value(let v)): return "value \(v)"
        case .answer(.refused(let why)): return "refused \(why)"
        case .answer(.unavailable): return "unavailable"
        case .tokenRefused: return "token"
        case .throttled(let ms): return "throttled \(ms.map(String.init) ?? "-")"
        case .transient: return "transient"
        }
    }

    @Test func applesAnswersAreReadAsDocumented() {
        #expect(Self.verdict(Self.answer(200, #"{"transfer_sub":"000111.x.0001"}"#)) == "value 000111.x.0001")
        #expect(Self.verdict(Self.answer(200, "not json")) == "refused unreadable answer")
        #expect(Self.verdict(Self.answer(400, #"{"error":"invalid_request"}"#)) == "refused invalid_request")
        #expect(Self.verdict(Self.answer(400, #"{"error":"invalid_grant"}"#)) == "token")
        #expect(Self.verdict(Self.answer(401, "")) == "token")
        #expect(Self.verdict(Self.answer(400, #"{"error":"invalid_client"}"#)) == "unavailable")
        #expect(Self.verdict(Self.answer(400, #"{"error":"whatever"}"#)) == "unavailable")
        #expect(Self.verdict(Self.answer(429, "", headers: [("retry-after", "7")])) == "throttled 7000")
        #expect(
            Self.verdict(Self.answer(429, "", headers: [("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT")]))
                == "throttled -")
        #expect(Self.verdict(Self.answer(503, "")) == "transient")
        #expect(Self.verdict(Self.answer(501, "")) == "unavailable")
        #expect(Self.verdict(.failure(HTTPError(kind: .timeout, message: "t"))) == "transient")
        #expect(Self.verdict(.failure(HTTPError(kind: .other, message: "bad url"))) == "unavailable")
    }
}
