@testable import LambdaRuntime

/// A Runtime API for the loop's tests: serves a fixed script of `next` answers, records every
/// request the loop makes, and answers `nil` ("no more") once the script is done, so every loop
/// under test ends. Failures go through the curl client's own status rule
/// (`RuntimeAPIRequest.check`), so "answers 500" fails here exactly as it does over HTTP.
final class MockRuntimeAPIClient: RuntimeAPIClientProtocol {
    enum Step {
        case invocation(Invocation)
        /// `next` answers this (non-200) status.
        case status(Int)
        /// `next` gets no answer at all (connection refused, dropped).
        case unreachable(RuntimeAPIFailure)
    }

    private var script: [Step]
    /// The status each post is answered with; 202 unless a test says otherwise.
    private let postStatus: (RuntimeAPIRequest) -> Int
    private(set) var requests: [RuntimeAPIRequest] = []

    init(_ script: [Step], postStatus: @escaping (RuntimeAPIRequest) -> Int = { _ in 202 }) {
        self.script = script
        self.postStatus = postStatus
    }

    convenience init(invocations: [Invocation], postStatus: @escaping (RuntimeAPIRequest) -> Int = { _ in 202 }) {
        self.init(invocations.map(Step.invocation), postStatus: postStatus)
    }

    func next() throws(RuntimeAPIFailure) -> Invocation? {
        requests.append(.next)
        guard !script.isEmpty else { return nil }
        switch script.removeFirst() {
        case .invocation(let invocation):
            return invocation
        case .status(let status):
            try RuntimeAPIRequest.next.check(status: status)
            preconditionFailure("the mock's .status(\(status)) must be a status `next` refuses")
        case .unreachable(let failure):
            throw failure
        }
    }

    func postResponse(requestID: String, body: [UInt8]) throws(RuntimeAPIFailure) -> Int {
        try post(.response(requestID: requestID, body: body))
    }

    func postInvocationError(requestID: String, _ diagnostic: Diagnostic) throws(RuntimeAPIFailure) {
        _ = try post(.invocationError(requestID: requestID, diagnostic))
    }

    func postInitError(_ diagnostic: Diagnostic) throws(RuntimeAPIFailure) {
        _ = try post(.initError(diagnostic))
    }

    private func post(_ request: RuntimeAPIRequest) throws(RuntimeAPIFailure) -> Int {
        requests.append(request)
        let status = postStatus(request)
        try request.check(status: status)
        return status
    }
}
