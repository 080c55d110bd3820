import Testing

@testable import LambdaRuntime

#if canImport(Glibc)
import Glibc
#endif

@Suite struct LambdaContextTests {
    @Test func remainingTime() {
        let now = Int64(time(nil)) * 1000
        let ctx = LambdaContext(
            requestID: "r", deadlineMilliseconds: now + 3_000, invokedFunctionARN: "arn", logger: Logger())
        #expect(ctx.remainingMilliseconds > 1_000 && ctx.remainingMilliseconds <= 3_000)
        #expect(ctx.traceID == nil && ctx.clientContext == nil && ctx.cognitoIdentity == nil)
    }

    @Test func fromAnInvocation() {
        let invocation = Invocation(
            requestID: "r", deadlineMilliseconds: 42, invokedFunctionARN: "arn", traceID: "t",
            clientContext: "c", cognitoIdentity: "i", event: [])
        let ctx = LambdaContext(invocation, logger: Logger().with(requestID: "r"))
        #expect(ctx.requestID == "r" && ctx.deadlineMilliseconds == 42 && ctx.invokedFunctionARN == "arn")
        #expect(
            ctx.traceID == "t" && ctx.clientContext == "c" && ctx.cognitoIdentity == "i" && ctx.logger.requestID == "r")
    }
}
