import Foundation
import Testing

@testable import SignInClient

/// The app's own Lambda client behind `LambdaInvoker`: the event goes to the configured function
/// name (an alias or ARN works too), and the payload is the bare envelope (no HTTP status).
final class FakeLambda: LambdaInvoker, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var invoked: [String] = []

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
    }
}
