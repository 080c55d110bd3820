import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService
@testable import LinkFunction
@testable import RefreshFunction
@testable import SignInFunction

/// A Function URL request whose `content-type` is `application/secevent+jwt` (Google's
/// Cross-Account Protection, RFC 8935) is a security event: its body is the token, never JSON; only
/// auth-link takes it.
@Suite struct SecurityEventInvocationTests {
    static let token = "eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiIxIn0.c2ln"

    func event(contentType: String, body: String = token) -> [UInt8] {
        guard case .object(var o)? = try? JSONParser.parse(functionURLEvent(body: .string(body))) else { return [] }
        o["headers"] = .object(JSONObject([("content-type", .string(contentType))]))
        return JSONValue.object(o).serialized()
    }

    @Test(arguments: [
        "application/secevent+jwt", "Application/SecEvent+JWT; charset=utf-8", " application/secevent+jwt ",
    ])
    func theContentTypeMakesItASecurityEvent(contentType: String) throws {
        guard case .success(let invocation) = Invocation.parse(event(contentType: contentType)) else {
            Issue.record("refused")
            return
        }
        #expect(invocation.isSecurityEvent && invocation.shape == .functionURL)
        #expect(invocation.request.object[Invocation.securityEventMember] == .string(Self.token))
        #expect(try AuthFunction.link.action(for: invocation) is GoogleSecurityEventAction)
        #expect(throws: ServiceError.self) { try AuthFunction.signin.action(for: invocation) }
        #expect(throws: ServiceError.self) { try AuthFunction.refresh.action(for: invocation) }
    }

    @Test func anEmptyOrBinaryBodyIsRefusedAsAFunctionURLRequest() {
        for body in ["", "   ", "a\u{01}b"] {
            guard
                case .failure(let refusal) = Invocation.parse(
                    event(contentType: "application/secevent+jwt", body: body))
            else {
                Issue.record("accepted \(body.debugDescription)")
                continue
            }
            #expect(refusal.shape == .functionURL && refusal.error.code == .invalidRequest)
        }
    }

    @Test func theSameBodyAsJSONIsAnOrdinaryRequest() {
        guard case .failure(let refusal) = Invocation.parse(event(contentType: "application/json")) else {
            Issue.record("a JWT body parsed as JSON")
            return
        }
        #expect(refusal.error.code == .invalidRequest)
    }

    @Test func googleExpects202() throws {
        let action = try GoogleSecurityEventAction(
            Request(JSONObject([(Invocation.securityEventMember, .string(Self.token))])))
        #expect(action.successStatus == 202)
        #expect(action.httpStatus(for: ServiceError(.invalidToken, "x")) == 400)
        #expect(action.httpStatus(for: ServiceError(.upstreamUnavailable, "x")) == 503)
    }
}
