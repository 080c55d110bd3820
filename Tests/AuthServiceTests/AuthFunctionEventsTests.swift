import CurlHTTP
import LambdaRuntime
import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService
@testable import LinkFunction
@testable import RefreshFunction
@testable import SignInFunction

/// Events are chosen by the invocation's shape before any `action` field is read, and each
/// answers refusals with the HTTP status its sender acts on (docs/API.md, "Notifications",
/// "Scheduled run").
@Suite struct AuthFunctionEventsTests {
    let handlerTests = ServiceHandlerTests()

    static let scheduled = #"""
        {"version":"0","id":"53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa","detail-type":"Scheduled Event",
         "source":"aws.events","account":"123456789012","time":"2026-11-23T10:00:00Z","region":"us-east-1",
         "resources":["arn:aws:events:us-east-1:123456789012:rule/hourly"],"detail":{}}
        """#

    /// The schedule's own invocation path (issue 18, defect 7).
    static let scheduleARN = "arn:aws:lambda:us-east-1:123456789012:function:auth-link:scheduled"

    func action(_ function: AuthFunction, _ event: [UInt8], arn: String = scheduleARN) throws -> String {
        guard case .success(let invocation) = Invocation.parse(event) else {
            Issue.record("the event did not parse")
            return ""
        }
        do throws(ServiceError) {
            return String(describing: type(of: try function.action(for: invocation.invoked(through: arn))))
        } catch {
            return error.code.rawValue  // an app call without its fields
        }
    }

    @Test func eventsAreChosenByShape() throws {
        #expect(try action(.link, Array(Self.scheduled.utf8)) == "ScheduledRunAction")
        #expect(
            try action(.link, functionURLEvent(body: .string(#"{"payload":"a.b.c"}"#))) == "AppleAccountEventAction")
        #expect(
            try action(.link, functionURLEvent(body: .string(#"{"signedPayload":"a.b.c"}"#)))
                == "AppStoreNotificationAction")
        // An `action` field does not override the shape.
        #expect(
            try action(.link, functionURLEvent(body: .string(#"{"payload":"a.b.c","action":"delete"}"#)))
                == "AppleAccountEventAction")
        #expect(
            try action(.link, Array(#"{"refreshToken":"rt1_x","action":"delete"}"#.utf8)) == "DeleteAction")
    }

    @Test func shapesOutsideTheirChannelAreOrdinaryRequests() throws {
        // The scheduled event through a Function URL, a notification body invoked directly, and
        // the scheduled event sent to a function that has no schedule.
        #expect(try action(.link, functionURLEvent(body: .string(Self.scheduled))) == "INVALID_REQUEST")
        #expect(try action(.link, Array(#"{"payload":"a.b.c"}"#.utf8)) == "INVALID_REQUEST")
        #expect(try action(.refresh, Array(Self.scheduled.utf8)) == "INVALID_REQUEST")
        let almost = #"{"source":"aws.events","detail-type":"Object Created","detail":{}}"#
        #expect(try action(.link, Array(almost.utf8)) == "INVALID_REQUEST")
    }

    @Test func aNotificationThatFailsVerificationIs400() throws {
        // APPLE_AUDIENCES is set in the minimal configuration, so the JWT is read and refused.
        let event = functionURLEvent(body: .string(#"{"payload":"not-a-jwt"}"#))
        let response = try JSONParser.parse(
            try handlerTests.handler(.link).handle(event, context: handlerTests.context()))
        #expect(response["statusCode"] == .number("400"))
        let body = try JSONParser.parse(try #require(response["body"]?.stringValue))
        #expect(body["error"]?["code"] == .string("INVALID_TOKEN"))
    }

    @Test func aNotificationWithTooLittleTimeIs503SoThatAppleRetries() throws {
        let event = functionURLEvent(body: .string(#"{"payload":"a.b.c"}"#))
        let response = try JSONParser.parse(
            try handlerTests.handler(.link).handle(event, context: handlerTests.context(remainingMs: 700)))
        #expect(response["statusCode"] == .number("503"))
    }

    /// Issue 23, defect 3 (contract v4): both kinds of Apple's notifications answer 400 only when
    /// the notification itself is refused, 503 for every other failure (CONFLICT included), so
    /// that Apple retries; on main CONFLICT and every other refusal answered 400.
    @Test func notificationsAnswer400OnlyWhenTheNotificationIsRefused() throws {
        let refused: Set<ErrorCode> = [
            .invalidRequest, .invalidToken, .tokenExpired, .unsupportedProvider, .invalidPurchase,
        ]
        let apple = try AppleAccountEventAction(Request(JSONObject([("payload", .string("a.b.c"))])))
        let store = try AppStoreNotificationAction(Request(JSONObject([("signedPayload", .string("a.b.c"))])))
        for code in ErrorCode.allCases {
            let expected = refused.contains(code) ? 400 : 503
            #expect(apple.httpStatus(for: ServiceError(code, "x")) == expected, "Sign in with Apple, \(code)")
            #expect(store.httpStatus(for: ServiceError(code, "x")) == expected, "App Store, \(code)")
        }
    }

    @Test func anAppCallKeepsTheContractsStatuses() throws {
        let event = functionURLEvent(body: .string(#"{"refreshToken":"rt1_garbage","action":"delete"}"#))
        let response = try JSONParser.parse(
            try handlerTests.handler(.link).handle(event, context: handlerTests.context()))
        #expect(response["statusCode"] == .number("401"))
    }

    @Test func deleteReadsItsFieldsBeforeAnythingIsSent() throws {
        let a = try handlerTests.answer(.link, #"{"refreshToken":"rt1_x","action":"delete","authorizationCode":7}"#)
        #expect(a["error"]?["code"] == .string("INVALID_REQUEST"))
        #expect(a["error"]?["message"]?.stringValue?.contains("authorizationCode") == true)
    }
}
