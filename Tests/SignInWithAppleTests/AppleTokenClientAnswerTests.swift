import CurlHTTP
import Testing

@testable import SignInWithApple

/// How the client reads answers, without a network: the retry verdicts and the token answer.
struct AppleTokenClientAnswerTests {
    static func verdict(_ status: Int, _ body: String = "") -> String {
        describe(AppleTokenClient.verdict(.success(HTTPResponse(status: status, body: Array(body.utf8)))))
    }

    static func describe(_ v: RetryVerdict<AppleTokenClient.Outcome, AppleTokenError>) -> String {
        switch v {
        case .retry(let error): return "retry \(error)"
        case .final(.success(let response)): return "ok \(response.status)"
        case .final(.failure(let error)): return "\(error)"
        }
    }

    @Test func statuses() {
        #expect(Self.verdict(200) == "ok 200")
        #expect(Self.verdict(429).hasPrefix("retry"))
        #expect(Self.verdict(500).hasPrefix("retry"))
        #expect(Self.verdict(503).hasPrefix("retry"))
        #expect(Self.verdict(501) == "\(AppleTokenError.unavailable)")
        #expect(Self.verdict(400, #"{"error":"invalid_grant"}"#) == "\(AppleTokenError.rejected("invalid_grant"))")
        #expect(Self.verdict(401, #"{"error":"invalid_client"}"#) == "\(AppleTokenError.rejected("invalid_client"))")
        #expect(Self.verdict(302) == "\(AppleTokenError.malformedAnswer)")
    }

    @Test func onlyDocumentedErrorNamesPassThrough() {
        #expect(
            Self.verdict(400, #"{"error":"<b>secret rT0k3n</b>"}"#) == "\(AppleTokenError.rejected("unrecognized"))")
        #expect(Self.verdict(400, #"{"error":42}"#) == "\(AppleTokenError.rejected("unrecognized"))")
        #expect(Self.verdict(400, "not json") == "\(AppleTokenError.rejected("unrecognized"))")
        for code in AppleTokenError.documentedCodes {
            #expect(AppleTokenError.rejection(code) == .rejected(code))
        }
    }

    @Test func transportFailures() {
        let timeout = AppleTokenClient.verdict(.failure(HTTPError(kind: .timeout, message: "t")))
        #expect(Self.describe(timeout).hasPrefix("retry"))
        let refused = AppleTokenClient.verdict(.failure(HTTPError(kind: .connection, message: "c")))
        #expect(Self.describe(refused).hasPrefix("retry"))
        let large = AppleTokenClient.verdict(.failure(HTTPError(kind: .responseTooLarge, message: "l")))
        #expect(Self.describe(large) == "\(AppleTokenError.malformedAnswer)")
        let other = AppleTokenClient.verdict(.failure(HTTPError(kind: .other, message: "o")))
        #expect(Self.describe(other) == "\(AppleTokenError.unavailable)")
    }

    @Test func tokenAnswers() throws {
        func grant(_ json: String) throws(AppleTokenError) -> AppleTokenGrant {
            try AppleTokenClient.grant(from: Array(json.utf8))
        }
        let full = try grant(
            #"{"access_token":"a1","token_type":"Bearer","expires_in":3600,"refresh_token":"r1","id_token":"i.d.t"}"#)
        #expect(full == AppleTokenGrant(idToken: "i.d.t", refreshToken: "r1", accessToken: "a1"))
        #expect(try grant(#"{"id_token":"i","refresh_token":null,"access_token":"a"}"#).refreshToken == nil)
        for malformed in [
            #"{"access_token":"a","refresh_token":"r"}"#,  // no id_token
            #"{"id_token":"i"}"#,  // nothing to revoke
            #"{"id_token":"i","refresh_token":7}"#,
            #"{"id_token":"","refresh_token":"r"}"#,
            #"{"id_token":"i","refresh_token":"r r"}"#,
            #"["id_token"]"#, "", #"{"id_token":"i","id_token":"j","refresh_token":"r"}"#,
        ] {
            #expect(throws: AppleTokenError.malformedAnswer, "\(malformed)") { try grant(malformed) }
        }
    }

    @Test func messagesCarryNoValues() {
        for error in [AppleTokenError.rejected("invalid_grant"), .unavailable, .malformedAnswer] {
            #expect(!error.description.isEmpty)
        }
    }
}
