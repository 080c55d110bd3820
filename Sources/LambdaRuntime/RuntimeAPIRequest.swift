/// The four requests the runtime makes, as values: the curl client turns one into HTTP, the
/// tests' mock records them, and the tests compare them whole.
enum RuntimeAPIRequest: Equatable {
    case next
    case response(requestID: String, body: [UInt8])
    case invocationError(requestID: String, Diagnostic)
    case initError(Diagnostic)

    var method: String { self == .next ? "GET" : "POST" }

    /// Below `http://$AWS_LAMBDA_RUNTIME_API/2018-06-01/runtime`.
    var path: String {
        switch self {
        case .next: "/invocation/next"
        case .response(let id, _): "/invocation/\(id)/response"
        case .invocationError(let id, _): "/invocation/\(id)/error"
        case .initError: "/init/error"
        }
    }

    var headers: [(name: String, value: String)] {
        switch self {
        case .next: []
        case .response: [("Content-Type", "application/json")]
        case .invocationError(_, let d), .initError(let d):
            [("Content-Type", "application/json"), ("Lambda-Runtime-Function-Error-Type", d.errorType)]
        }
    }

    var body: [UInt8] {
        switch self {
        case .next: []
        case .response(_, let body): body
        case .invocationError(_, let d), .initError(let d): d.document
        }
    }

    /// `next` is a long poll that waits for the next invocation however long it takes; a post
    /// that hangs for 30 s means the Runtime API is gone.
    var timeoutMilliseconds: Int { self == .next ? 0 : 30_000 }

    /// How failures name the request ("GET next failed: …", "POST response answered HTTP 500").
    var label: String {
        switch self {
        case .next: "GET next"
        case .response: "POST response"
        case .invocationError, .initError: "POST error"
        }
    }

    /// `next` must answer 200. A post may be refused with a 4xx (the loop reads the status, 413
    /// above all); a 5xx means the Runtime API itself failed.
    func check(status: Int) throws(RuntimeAPIFailure) {
        let acceptable = self == .next ? status == 200 : status < 500
        guard acceptable else { throw RuntimeAPIFailure(description: "\(label) answered HTTP \(status)") }
    }
}
