import Testing

@testable import LambdaRuntime

@Suite struct InvocationTests {
    @Test func everyHeaderAnyCaseFirstOneWins() throws {
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("LAMBDA-RUNTIME-AWS-REQUEST-ID", "req-1"),
            ("lambda-runtime-deadline-ms", "1795347304937"),
            ("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:f"),
            ("Lambda-Runtime-Trace-Id", "Root=1-abc"),
            ("Lambda-Runtime-Client-Context", "{\"client\":{}}"),
            ("Lambda-Runtime-Cognito-Identity", "{\"cognitoIdentityId\":\"x\"}"),
            ("Lambda-Runtime-Aws-Request-Id", "req-2"),
            ("Lambda-Runtime-Unknown", "ignored"),
        ]
        let invocation = try Invocation(headers: headers, event: [1, 2])
        #expect(
            invocation
                == Invocation(
                    requestID: "req-1", deadlineMilliseconds: 1_795_347_304_937,
                    invokedFunctionARN: "arn:aws:lambda:us-east-1:000000000000:function:f", traceID: "Root=1-abc",
                    clientContext: "{\"client\":{}}", cognitoIdentity: "{\"cognitoIdentityId\":\"x\"}", event: [1, 2]))
    }

    @Test func optionalHeadersMayBeMissingAndABadDeadlineIsZero() throws {
        let invocation = try Invocation(
            headers: [("Lambda-Runtime-Aws-Request-Id", "r"), ("Lambda-Runtime-Deadline-Ms", "soon")], event: [])
        #expect(invocation == Invocation(requestID: "r", deadlineMilliseconds: 0, invokedFunctionARN: "", event: []))
    }

    @Test(
        arguments: [[], [("Lambda-Runtime-Aws-Request-Id", "")], [("Lambda-Runtime-Aws-Request-Id2", "r")]]
            as [[(name: String, value: String)]])
    func noRequestIDIsARuntimeAPIFailure(_ headers: [(name: String, value: String)]) {
        #expect(throws: RuntimeAPIFailure(description: "GET next answered without Lambda-Runtime-Aws-Request-Id")) {
            try Invocation(headers: headers, event: [])
        }
    }

    @Test func caseInsensitiveMatching() {
        #expect(Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-Id", "lambda-runtime-trace-id"))
        #expect(Invocation.equalsIgnoringCase("LAMBDA-RUNTIME-TRACE-ID", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-Id2", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-I", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda_Runtime-Trace-Id", "lambda-runtime-trace-id"))
        #expect(Invocation.hasPrefixIgnoringCase("Lambda-Runtime-X", "lambda-runtime-"))
        #expect(!Invocation.hasPrefixIgnoringCase("Lambda-Runtim", "lambda-runtime-"))
        #expect(!Invocation.hasPrefixIgnoringCase("Lámbda-Runtime-X", "lambda-runtime-"))
    }
}
