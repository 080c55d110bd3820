import Foundation
import Testing

@testable import SignInClient

/// The app's own Lambda client behind `LambdaInvoker`: the event goes to the configured function
/// name (an alias or ARN works too), and the payload is the bare envelope (no HTTP status).
final class FakeLambda: LambdaInvoker, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var invoked: [String] = []
    private(set) var timeouts: [TimeInterval] = []

    func invoke(functionName: String, payload: Data, timeout: TimeInterval) async throws -> Data {
        lock.withLock { timeouts.append(timeout) }
        return try await invoke(functionName: functionName, payload: payload)
    }

    func invoke(functionName: String, payload: Data) async throws -> Data {
        lock.withLock { invoked.append(functionName) }
        let event = try JSONSerialization.jsonObject(with: payload) as? [String: Any] ?? [:]
        if functionName.hasSuffix("auth-signin:live") {
            return Answers.session(token: "rt-0", key: "AK0", newUser: event["intent"] as? String == "signup")
        }
        return try JSONSerialization.data(withJSONObject: [
            "success": false, "error": ["code": "ACCOUNT_DISABLED", "message": "Contact support."],
            "meta": ["requestId": "r"],
        ])
    }

    var names: [String] { lock.withLock { invoked } }
    var attemptTimeouts: [TimeInterval] { lock.withLock { timeouts } }
}

@Suite struct LambdaInvokeTransportTests {
    @Test func invokesByNameAndReadsTheBareEnvelope() async throws {
        let lambda = FakeLambda()
        let transport = LambdaInvokeTransport(
            invoker: lambda, signIn: "arn:aws:lambda:us-east-1:123456789012:function:auth-signin:live")
        let session = SignInSession(
            configuration: SignInConfiguration(transport: transport, store: InMemorySessionStore()))
        let result = try await session.signIn(with: .google, idToken: "id", intent: .signup)
        #expect(result.isNewUser)
        await #expect(throws: SignInError.server(.accountDisabled, message: "Contact support.", status: nil)) {
            try await session.refresh()
        }
        #expect(lambda.names == ["arn:aws:lambda:us-east-1:123456789012:function:auth-signin:live", "auth-refresh"])
        #expect(await session.currentUser == nil)
        #expect(lambda.attemptTimeouts == [15, 15])  // the function's timeout + 5 s, told to the invoker
    }

    @Test func eachAttemptIsToldItsFunctionsTimeout() {
        let transport = LambdaInvokeTransport(invoker: FakeLambda())
        #expect(transport.attemptTimeout(for: .refresh) == 15)
        #expect(transport.attemptTimeout(for: .link) == 35)  // auth-link's Timeout is 30 s
    }
}
