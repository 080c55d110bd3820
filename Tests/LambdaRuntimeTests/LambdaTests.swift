import StrictJSON
import Testing

@testable import LambdaRuntime

#if canImport(Glibc)
import Glibc
#endif

private let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
private let arn = "arn:aws:lambda:us-east-1:000000000000:function:mock"

private func invocation(
    _ id: String, _ event: String = "{}", deadline: Int64 = 1_795_347_304_937, traceID: String? = nil,
    clientContext: String? = nil, cognitoIdentity: String? = nil
) -> Invocation {
    Invocation(
        requestID: id, deadlineMilliseconds: deadline, invokedFunctionARN: arn, traceID: traceID,
        clientContext: clientContext, cognitoIdentity: cognitoIdentity, event: Array(event.utf8))
}

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

private struct Typed: LambdaFunctionError {
    var errorType: String { "Auth.Broken" }
    var errorMessage: String { "named failure" }
}

/// Its description quotes input: it must reach neither the Runtime API nor the log.
private struct Untyped: Error, CustomStringConvertible {
    var description: String { "bad token-abc in the event" }
}

/// The run loop against `MockRuntimeAPIClient`. Serialized: the loop sets and unsets the
/// process-wide `_X_AMZN_TRACE_ID`, and one test reads it from inside the handler.
@Suite(.serialized) struct LambdaTests {
    let log = LogLines()

    /// Init with `handler`, then the loop, until the mock's script runs out.
    func run(
        _ client: MockRuntimeAPIClient, _ handler: ScriptedHandler, level: Logger.Level = .info, json: Bool = false
    ) -> LambdaExit {
        Lambda.run(client: client, logger: log.logger(level, json: json), functionName: "mock") { _ in handler }
    }

    @Test func handsEachEventToTheHandlerAndPostsItsAnswer() {
        let client = MockRuntimeAPIClient(invocations: [invocation("r1", #"{"n":1}"#), invocation("r2", #"{"n":2}"#)])
        let handler = ScriptedHandler { event, _ in bytes("answer:") + event }
        #expect(run(client, handler) == .noMoreInvocations)
        #expect(handler.events == [bytes(#"{"n":1}"#), bytes(#"{"n":2}"#)])
        #expect(
            client.requests == [
                .next, .response(requestID: "r1", body: bytes(#"answer:{"n":1}"#)),
                .next, .response(requestID: "r2", body: bytes(#"answer:{"n":2}"#)), .next,
            ])
    }

    @Test func aLambdaFunctionErrorIsPostedWithItsTypeAndMessageAndTheLoopGoesOn() {
        let client = MockRuntimeAPIClient(invocations: [invocation("r1", "throw"), invocation("r2", "echo")])
        let handler = ScriptedHandler { event, _ in
            if event == bytes("throw") { throw Typed() }
            return event
        }
        #expect(run(client, handler) == .noMoreInvocations)
        #expect(
            client.requests == [
                .next,
                .invocationError(requestID: "r1", Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure")),
                .next, .response(requestID: "r2", body: bytes("echo")), .next,
            ])
    }

    @Test func anyOtherErrorIsPostedByItsTypeNameOnly() {
        let client = MockRuntimeAPIClient(invocations: [invocation("r1")])
        #expect(run(client, ScriptedHandler { _, _ in throw Untyped() }) == .noMoreInvocations)
        let posted = Diagnostic(errorType: "Function.UnhandledError", errorMessage: "Untyped")
        #expect(client.requests == [.next, .invocationError(requestID: "r1", posted), .next])
        #expect(!log.lines.isEmpty && !log.lines.contains { $0.contains("token-abc") })
    }

    @Test func anInitErrorGoesToTheInitErrorEndpointAndTheLoopDoesNotStart() {
        let client = MockRuntimeAPIClient(invocations: [invocation("never")])
        let typed = Lambda.run(client: client, logger: log.logger(), functionName: "mock") {
            (_) throws -> ScriptedHandler in throw Typed()
        }
        let diagnostic = Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure")
        #expect(typed == .initFailed(diagnostic) && typed.status == 1)
        #expect(client.requests == [.initError(diagnostic)])  // no `next`
        #expect(
            log.lines.count == 1
                && log.lines[0].contains("FATAL init failed errorType=Auth.Broken errorMessage=named failure"))

        let other = MockRuntimeAPIClient(invocations: [invocation("never")])
        let untyped = Lambda.run(client: other, logger: log.logger(), functionName: "mock") {
            (_) throws -> ScriptedHandler in throw Untyped()
        }
        #expect(untyped == .initFailed(Diagnostic(errorType: "Runtime.InitError", errorMessage: "Untyped")))
        #expect(other.requests == [.initError(Diagnostic(errorType: "Runtime.InitError", errorMessage: "Untyped"))])
    }

    @Test func anInitErrorWhosePostFailsStillEndsTheRun() {
        let client = MockRuntimeAPIClient([], postStatus: { _ in 500 })
        let exit = Lambda.run(client: client, logger: log.logger(), functionName: "mock") {
            (_) throws -> ScriptedHandler in throw Typed()
        }
        #expect(exit.status == 1 && client.requests.count == 1)
        #expect(log.lines.last?.contains("FATAL POST error answered HTTP 500") == true)
    }

    @Test func theHandlerFactoryGetsTheFunctionNameAndLogger() throws {
        var seen: InitContext?
        let exit = Lambda.run(client: MockRuntimeAPIClient([]), logger: log.logger(.warn), functionName: "probe-fn") {
            context in
            seen = context
            return ScriptedHandler()
        }
        #expect(exit == .noMoreInvocations && exit.status == 0)
        let context = try #require(seen)
        #expect(context.functionName == "probe-fn" && context.logger.minimumLevel == .warn)
    }

    @Test func anAnswerOver6MiBBecomesResponseSizeTooLarge() throws {
        let limit = 6 * 1024 * 1024
        #expect(Lambda.maxResponseBytes == limit)
        let client = MockRuntimeAPIClient(invocations: [
            invocation("big", "\(limit + 1)"), invocation("exact", "\(limit)"),
        ])
        let handler = ScriptedHandler { event, _ in
            [UInt8](repeating: 0x78, count: Int(String(decoding: event, as: UTF8.self))!)
        }
        #expect(run(client, handler) == .noMoreInvocations)
        try #require(client.requests.count == 5)
        guard case .invocationError("big", let diagnostic) = client.requests[1] else {
            Issue.record("\(client.requests[1])")
            return
        }
        #expect(diagnostic.errorType == "Function.ResponseSizeTooLarge")
        #expect(
            diagnostic.errorMessage
                == "Response payload size (6291457 bytes) exceeded maximum allowed payload size (6291456 bytes).")
        guard case .response("exact", let body) = client.requests[3] else {
            Issue.record("\(client.requests[3])")
            return
        }
        #expect(body.count == limit)  // exactly the limit is delivered
        #expect(
            log.lines[0].contains("outcome=error") && log.lines[0].contains("errorType=Function.ResponseSizeTooLarge"))
    }

    @Test func a413IsReportedAsTooLargeAndAnother4xxIsLoggedAsRejected() {
        let client = MockRuntimeAPIClient(invocations: [invocation("r413"), invocation("r400"), invocation("ok")]) {
            request in
            switch request {
            case .response("r413", _): 413
            case .response("r400", _): 400
            default: 202
            }
        }
        #expect(run(client, ScriptedHandler()) == .noMoreInvocations)
        #expect(
            client.requests == [
                .next, .response(requestID: "r413", body: bytes("{}")),
                .invocationError(requestID: "r413", .refusedAsTooLarge),
                .next, .response(requestID: "r400", body: bytes("{}")),
                .next, .response(requestID: "ok", body: bytes("{}")), .next,
            ])
        #expect(log.lines.count == 3)
        #expect(
            log.lines[0].contains(" ERROR r413 invocation outcome=error ")
                && log.lines[0].hasSuffix(" errorType=Function.ResponseSizeTooLarge\n"))
        #expect(
            log.lines[1].contains(" ERROR r400 invocation outcome=rejected ") && log.lines[1].hasSuffix(" status=400\n")
        )
        #expect(log.lines[2].contains(" INFO ok invocation outcome=ok "))
    }

    @Test func theTraceIDIsSetPerInvocationAndTheHeadersReachTheContext() {
        setenv("_X_AMZN_TRACE_ID", "stale", 1)
        defer { unsetenv("_X_AMZN_TRACE_ID") }
        let client = MockRuntimeAPIClient(invocations: [
            invocation(
                "r1", deadline: 1_795_347_309_937, traceID: trace, clientContext: #"{"client":{}}"#,
                cognitoIdentity: #"{"cognitoIdentityId":"x"}"#),
            invocation("r2", deadline: 1_795_347_310_000),
        ])
        let handler = ScriptedHandler()
        #expect(run(client, handler) == .noMoreInvocations)
        #expect(handler.traceEnvironment == [trace, nil])  // set for r1, gone for r2
        #expect(handler.contexts.map(\.requestID) == ["r1", "r2"])
        #expect(handler.contexts.map(\.deadlineMilliseconds) == [1_795_347_309_937, 1_795_347_310_000])
        #expect(handler.contexts.map(\.invokedFunctionARN) == [arn, arn])
        #expect(handler.contexts.map(\.traceID) == [trace, nil])
        #expect(handler.contexts.map(\.clientContext) == [#"{"client":{}}"#, nil])
        #expect(handler.contexts.map(\.cognitoIdentity) == [#"{"cognitoIdentityId":"x"}"#, nil])
        #expect(handler.contexts.map(\.logger.requestID) == ["r1", "r2"])  // the handler's lines carry the request id
    }

    enum FailurePoint: CaseIterable {
        case nextUnreachable, nextAnswers500, responseAnswers500, errorPostAnswers502
    }

    @Test(arguments: FailurePoint.allCases)
    func aFailingRuntimeAPIEndsTheLoopWithANonZeroExit(_ point: FailurePoint) {
        let dropped = RuntimeAPIFailure(description: "GET next failed: Connection refused")
        let answered = MockRuntimeAPIClient.Step.invocation(invocation("r1"))
        let thrown = MockRuntimeAPIClient.Step.invocation(invocation("r1", "throw"))
        let never = MockRuntimeAPIClient.Step.invocation(invocation("never"))
        let response = RuntimeAPIRequest.response(requestID: "r1", body: bytes("{}"))
        let client: MockRuntimeAPIClient
        let failure: String
        let requests: [RuntimeAPIRequest]
        switch point {
        case .nextUnreachable:
            (client, failure) = (MockRuntimeAPIClient([answered, .unreachable(dropped), never]), dropped.description)
            requests = [.next, response, .next]
        case .nextAnswers500:
            (client, failure) = (MockRuntimeAPIClient([answered, .status(500), never]), "GET next answered HTTP 500")
            requests = [.next, response, .next]
        case .responseAnswers500:
            (client, failure) = (
                MockRuntimeAPIClient([answered, never]) { _ in 500 }, "POST response answered HTTP 500"
            )
            requests = [.next, response]
        case .errorPostAnswers502:
            (client, failure) = (MockRuntimeAPIClient([thrown, never]) { _ in 502 }, "POST error answered HTTP 502")
            requests = [
                .next,
                .invocationError(requestID: "r1", Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure")),
            ]
        }
        let handler = ScriptedHandler { event, _ in
            if event == bytes("throw") { throw Typed() }
            return event
        }
        let exit = run(client, handler)
        #expect(exit == .runtimeAPIFailed(RuntimeAPIFailure(description: failure)) && exit.status == 4)
        #expect(client.requests == requests)  // nothing after the failure
        #expect(log.lines.last?.hasSuffix(" FATAL runtime API failure, exiting reason=\(failure)\n") == true)
    }

    @Test(arguments: [(Logger.Level.info, 3), (.warn, 1), (.error, 1), (.fatal, 0)])
    func oneLogLinePerInvocationAtTheConfiguredLevel(_ level: Logger.Level, _ expected: Int) {
        let client = MockRuntimeAPIClient(invocations: [invocation("r1"), invocation("r2", "throw"), invocation("r3")])
        let handler = ScriptedHandler { event, _ in
            if event == bytes("throw") { throw Typed() }
            return event
        }
        #expect(run(client, handler, level: level) == .noMoreInvocations)
        #expect(log.lines.count == expected, "\(log.lines)")
        let shapes = log.lines.map { line in
            line.dropLast().split(separator: " ").dropFirst().filter { !$0.hasPrefix("durationMs=") }.joined(
                separator: " ")
        }
        let all = [
            "INFO r1 invocation outcome=ok", "ERROR r2 invocation outcome=error errorType=Auth.Broken",
            "INFO r3 invocation outcome=ok",
        ]
        #expect(shapes == all.filter { level <= ($0.hasPrefix("INFO") ? .info : .error) })
        for line in log.lines {
            #expect(
                line.dropLast().split(separator: " ").contains {
                    $0.hasPrefix("durationMs=") && $0.split(separator: ".").last?.count == 2
                })
        }
    }

    @Test func jsonLogLinesHaveLambdasShape() throws {
        let client = MockRuntimeAPIClient(invocations: [invocation("r1"), invocation("r2", "throw")])
        let handler = ScriptedHandler { event, _ in
            if event == bytes("throw") { throw Typed() }
            return event
        }
        #expect(run(client, handler, json: true) == .noMoreInvocations)
        let lines = try log.lines.map { try #require(try JSONParser.parse(Array($0.utf8.dropLast())).objectValue) }
        try #require(lines.count == 2)
        #expect(lines[0].keys == ["timestamp", "level", "message", "requestId", "outcome", "durationMs"])
        #expect(lines[0]["level"] == "INFO" && lines[0]["requestId"] == "r1" && lines[0]["outcome"] == "ok")
        #expect(lines[1].keys == ["timestamp", "level", "message", "requestId", "outcome", "durationMs", "errorType"])
        #expect(lines[1]["level"] == "ERROR" && lines[1]["errorType"] == "Auth.Broken")
    }

    @Test func exitStatuses() {
        let failure = RuntimeAPIFailure(description: "x")
        let exits: [LambdaExit] = [
            .noMoreInvocations, .initFailed(Diagnostic(errorType: "Init.X", errorMessage: "x")),
            .runtimeAPINotConfigured, .clientUnavailable,
            .runtimeAPIFailed(failure),
        ]
        #expect(exits.map(\.status) == [0, 1, 2, 3, 4])
    }

    @Test func durationText() {
        #expect(Lambda.milliseconds(micros: 0) == "0.00")
        #expect(Lambda.milliseconds(micros: 1_250) == "1.25")
        #expect(Lambda.milliseconds(micros: 1_009) == "1.00")
        #expect(Lambda.milliseconds(micros: 123_456_789) == "123456.78")
    }
}
