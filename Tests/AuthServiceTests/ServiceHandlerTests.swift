import CurlHTTP
import LambdaRuntime
import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService
@testable import LinkFunction
@testable import RefreshFunction
@testable import SignInFunction

/// The one path through the handler, for what needs no network: dispatch by `action`, the
/// time check, the shape of the answer. (Everything that reaches S3, STS or a JWKS runs end to
/// end in Tests/integration.)
@Suite struct ServiceHandlerTests {
    func handler(_ function: AuthFunction) throws -> ServiceHandler {
        let configuration = try ServiceConfiguration.from(environment: { ServiceConfigurationTests.minimal[$0] })
        return ServiceHandler(
            function: function,
            dependencies: try ServiceDependencies(configuration: configuration, http: try HTTPClient()))
    }

    func context(remainingMs: Int64 = 10_000) -> LambdaContext {
        LambdaContext(
            requestID: "req-1", deadlineMilliseconds: Clock.nowMilliseconds() + remainingMs,
            invokedFunctionARN: "arn:aws:lambda:eu-west-1:123456789012:function:f",
            logger: Logger(minimumLevel: .error))
    }

    func answer(_ function: AuthFunction, _ event: String, remainingMs: Int64 = 10_000) throws -> JSONValue {
        try JSONParser.parse(
            try handler(function).handle(Array(event.utf8), context: context(remainingMs: remainingMs)))
    }

    @Test func eachActionNameChoosesItsType() throws {
        let expected: [(AuthFunction, String?, String)] = [
            (.refresh, nil, "RefreshAction"), (.refresh, "refresh", "RefreshAction"),
            (.refresh, "signout", "SignOutAction"),
            (.refresh, "list", "ListSessionsAction"), (.refresh, "signoutOthers", "SignOutOthersAction"),
            (.refresh, "signoutSession", "SignOutSessionAction"), (.link, nil, "LinkAction"),
            (.link, "unlink", "UnlinkAction"),
            (.signin, "anything", "SignInAction"),
        ]
        for (function, name, type) in expected {
            var o = JSONObject([
                ("refreshToken", .string("rt1_x")), ("provider", .string("google")), ("idToken", .string("a.b.c")),
                ("sessionId", .string("0123456789abcdef0123456789abcdef")),
            ])
            if let name { o["action"] = .string(name) }
            #expect(String(describing: Swift.type(of: try function.action(for: Request(o)))) == type)
        }
    }

    @Test func anUnknownActionIsInvalidRequestAndNamesTheChoices() throws {
        let a = try answer(.refresh, #"{"refreshToken":"rt1_x","action":"signOutOthers"}"#)
        #expect(a["error"]?["code"] == .string("INVALID_REQUEST"))
        #expect(a["error"]?["message"]?.stringValue?.contains("signoutOthers") == true)
    }

    @Test func aMalformedRefreshTokenIsRefusedBeforeAnythingIsSent() throws {
        let a = try answer(.refresh, #"{"refreshToken":"rt1_garbage","action":"list"}"#)
        #expect(a["success"] == .bool(false) && a["error"]?["code"] == .string("SESSION_INVALID"))
        #expect(a["meta"]?["requestId"] == .string("req-1"))
    }

    @Test func tooLittleTimeLeftStartsNothing() throws {
        let a = try answer(.signin, #"{"provider":"apple","idToken":"a.b.c"}"#, remainingMs: 700)
        #expect(a["error"]?["code"] == .string("UPSTREAM_UNAVAILABLE"))
    }

    @Test func fieldErrorsComeBeforeTokenVerification() throws {
        #expect(
            try answer(.signin, #"{"provider":"facebook","idToken":"a.b.c"}"#)["error"]?["code"]
                == .string("UNSUPPORTED_PROVIDER"))
        #expect(
            try answer(.signin, #"{"provider":"apple","idToken":"a.b.c","device":"a\nb"}"#)["error"]?["code"]
                == .string("INVALID_REQUEST"))
        #expect(
            try answer(.link, #"{"refreshToken":"rt1_x","action":"unlink"}"#)["error"]?["code"]
                == .string("INVALID_REQUEST"))
    }

    /// UNSUPPORTED_PROVIDER names the providers this deployment accepts (the minimal
    /// configuration: Apple only), for an unknown provider and for a known one that is off.
    @Test func anUnsupportedProviderNamesTheAcceptedOnes() throws {
        let unknown = try answer(.signin, #"{"provider":"facebook","idToken":"a.b.c"}"#)
        #expect(unknown["error"]?["code"] == .string("UNSUPPORTED_PROVIDER"))
        #expect(unknown["error"]?["message"]?.stringValue?.hasSuffix("(it accepts: apple).") == true)
        for function in [AuthFunction.signin, .link] {
            let off = try answer(
                function, #"{"provider":"firebase","idToken":"a.b.c","refreshToken":"rt1_x","intent":"auto"}"#)
            #expect(off["error"]?["code"] == .string("UNSUPPORTED_PROVIDER"), "\(function)")
            #expect(
                off["error"]?["message"]?.stringValue
                    == "Firebase sign-in is not enabled for this deployment (it accepts: apple)")
        }
        let linkUnknown = try answer(.link, #"{"refreshToken":"rt1_x","action":"unlink","provider":"facebook"}"#)
        #expect(linkUnknown["error"]?["message"]?.stringValue?.contains("it accepts: apple") == true)
    }

    @Test func aFunctionURLCallIsAnsweredAsHTTP() throws {
        let event = functionURLEvent(body: .string(#"{"refreshToken":"rt1_garbage"}"#))
        let response = try JSONParser.parse(try handler(.refresh).handle(event, context: context()))
        #expect(response["statusCode"] == .number("401"))
        let body = try JSONParser.parse(try #require(response["body"]?.stringValue))
        #expect(body["error"]?["code"] == .string("SESSION_INVALID"))
    }
}
