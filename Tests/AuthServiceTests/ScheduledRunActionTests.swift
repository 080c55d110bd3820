import CurlHTTP
import LambdaRuntime
import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService
@testable import LinkFunction
@testable import RefreshFunction
@testable import SignInFunction

/// Issue 18, defect 7: the scheduled run is accepted only through the schedule's alias; the same
/// event invoked any other way answers INVALID_REQUEST and sends nothing anywhere.
@Suite struct ScheduledRunActionTests {
    let handlerTests = ServiceHandlerTests()

    func context(arn: String) -> LambdaContext {
        LambdaContext(
            requestID: "req-1", deadlineMilliseconds: Clock.nowMilliseconds() + 10_000, invokedFunctionARN: arn,
            logger: Logger(minimumLevel: .error))
    }

    @Test func onlyTheScheduleAliasIsTheSchedulesPath() {
        #expect(
            ScheduledRunAction.isScheduleAlias("arn:aws:lambda:us-east-1:123456789012:function:auth-link:scheduled"))
        #expect(ScheduledRunAction.isScheduleAlias("arn:aws-cn:lambda:cn-north-1:123456789012:function:x:scheduled"))
        for other in [
            "", "arn:aws:lambda:us-east-1:123456789012:function:auth-link",
            "arn:aws:lambda:us-east-1:123456789012:function:scheduled",
            "arn:aws:lambda:us-east-1:123456789012:function:auth-link:live",
            "arn:aws:lambda:us-east-1:123456789012:function:auth-link:7",
            "arn:aws:lambda:us-east-1:123456789012:function:auth-link:scheduledx",
            "arn:aws:s3:us-east-1:123456789012:function:auth-link:scheduled",
            "arn:aws:lambda:us-east-1:123456789012:function:a:b:scheduled",
        ] {
            #expect(!ScheduledRunAction.isScheduleAlias(other), "\(other)")
        }
    }

    @Test func aScheduledEventInvokedAnyOtherWayIsRefusedBeforeAnythingIsSent() throws {
        let handler = try handlerTests.handler(.link)
        for arn in [
            "arn:aws:lambda:us-east-1:123456789012:function:auth-link",
            "arn:aws:lambda:us-east-1:123456789012:function:auth-link:live",
        ] {
            let response = try JSONParser.parse(
                try handler.handle(Array(AuthFunctionEventsTests.scheduled.utf8), context: context(arn: arn)))
            #expect(response["success"] == .bool(false))
            #expect(response["error"]?["code"] == .string("INVALID_REQUEST"))
            #expect(response["error"]?["message"]?.stringValue?.contains("scheduled") == true)
            #expect(handler.dependencies.http.requestCount == 0, "nothing may be listed or read")
        }
    }

    @Test func theSchedulesOwnInvocationIsTheScheduledRun() throws {
        guard case .success(let invocation) = Invocation.parse(Array(AuthFunctionEventsTests.scheduled.utf8)) else {
            Issue.record("the event did not parse")
            return
        }
        let action = try AuthFunction.link.action(for: invocation.invoked(through: AuthFunctionEventsTests.scheduleARN))
        #expect(action is ScheduledRunAction)
        #expect(throws: ServiceError.self) { try AuthFunction.link.action(for: invocation) }
    }
}
