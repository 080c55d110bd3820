import Testing

@testable import LambdaRuntime

@Suite struct RuntimeAPIRequestTests {
    let diagnostic = Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure")

    @Test func next() {
        let r = RuntimeAPIRequest.next
        #expect(r.method == "GET" && r.path == "/invocation/next" && r.headers.isEmpty && r.body.isEmpty)
        #expect(r.timeoutMilliseconds == 0)  // the long poll waits as long as it takes
    }

    @Test func response() {
        let r = RuntimeAPIRequest.response(requestID: "req-1", body: Array("{\"a\":1}".utf8))
        #expect(r.method == "POST" && r.path == "/invocation/req-1/response")
        #expect(r.headers.map { "\($0.name): \($0.value)" } == ["Content-Type: application/json"])
        #expect(r.body == Array("{\"a\":1}".utf8) && r.timeoutMilliseconds == 30_000)
    }

    @Test func errorsCarryTheTypeInAHeaderAndTheDocumentAsBody() {
        let invocation = RuntimeAPIRequest.invocationError(requestID: "req-1", diagnostic)
        let initError = RuntimeAPIRequest.initError(diagnostic)
        #expect(invocation.path == "/invocation/req-1/error" && initError.path == "/init/error")
        for r in [invocation, initError] {
            #expect(r.method == "POST" && r.timeoutMilliseconds == 30_000 && r.body == diagnostic.document)
            #expect(
                r.headers.map { "\($0.name): \($0.value)" } == [
                    "Content-Type: application/json", "Lambda-Runtime-Function-Error-Type: Auth.Broken",
                ])
        }
    }

    @Test func nextWants200() throws {
        try RuntimeAPIRequest.next.check(status: 200)
        for status in [202, 404, 500] {
            #expect(throws: RuntimeAPIFailure(description: "GET next answered HTTP \(status)")) {
                try RuntimeAPIRequest.next.check(status: status)
            }
        }
    }

    @Test func postsFailOnlyOn5xx() throws {
        let posts: [RuntimeAPIRequest] = [
            .response(requestID: "r", body: []), .invocationError(requestID: "r", diagnostic), .initError(diagnostic),
        ]
        for (post, label) in zip(posts, ["POST response", "POST error", "POST error"]) {
            for status in [202, 400, 413, 499] { try post.check(status: status) }  // the loop reads these
            #expect(throws: RuntimeAPIFailure(description: "\(label) answered HTTP 500")) {
                try post.check(status: 500)
            }
        }
    }
}
