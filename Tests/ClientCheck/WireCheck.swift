import Foundation
import SignInClient

/// `client-check wire --answers FILE`: every public call once against a transport that records the
/// event the client sends and answers from FILE (`{"<action>": <data>}`, built by the test from
/// docs/openapi.yaml). Prints the events, the actions whose answers decoded, and the client's codes.
final class RecordingTransport: SignInTransport, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var events: [[String: Any]] = []
    let answers: [String: Any]

    init(answers: [String: Any]) { self.answers = answers }

    func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        let object = (try JSONSerialization.jsonObject(with: event)) as? [String: Any] ?? [:]
        let action = function == .signin ? "signin" : object["action"] as? String ?? ""
        lock.withLock { events.append(["function": function.rawValue, "event": object]) }
        let envelope: [String: Any] = [
            "success": true, "data": answers[action] ?? [:],
            "meta": ["requestId": "r", "timestamp": Date().formatted(Date.ISO8601FormatStyle())],
        ]
        return TransportAnswer(statusCode: 200, body: try JSONSerialization.data(withJSONObject: envelope))
    }

    var recorded: [[String: Any]] { lock.withLock { events } }
}

func wireCheck(_ arguments: Arguments) async -> [String: Any] {
    let data = (try? Data(contentsOf: URL(fileURLWithPath: arguments["answers"]))) ?? Data()
    let answers = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    let transport = RecordingTransport(answers: answers)
    let session = SignInSession(
        configuration: SignInConfiguration(
            transport: transport, store: InMemorySessionStore(), device: "iPhone 15 · Photos 2.3"))
    var decoded: [String] = []
    var failures: [String] = []
    func attempt(_ action: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            decoded.append(action)
        } catch { failures.append("\(action): \(error)") }
    }
    let nonce = SignInWithAppleNonce()
    await attempt("signin") {
        _ = try await session.signIn(with: .apple, idToken: "id", intent: .signup, nonce: nonce.raw, fullName: "Ada")
    }
    await attempt("refresh") { try await session.refresh() }
    await attempt("list") { _ = try await session.sessions() }
    await attempt("signoutOthers") { _ = try await session.signOutOtherSessions() }
    await attempt("signoutSession") { try await session.signOut(sessionId: "3f9c") }
    await attempt("link") { _ = try await session.link(.google, idToken: "id", nonce: "n") }
    await attempt("claimPurchase") { _ = try await session.claimPurchase(signedTransaction: "jws") }
    await attempt("unlink") { _ = try await session.unlink(.google) }
    await attempt("delete") { _ = try await session.deleteAccount(appleAuthorizationCode: "code") }
    await attempt("signin") { _ = try await session.signIn(with: .google, idToken: "id") }
    _ = await session.signOut()
    return [
        "events": transport.recorded, "decoded": decoded, "failures": failures,
        "codes": ErrorCode.all.map(\.rawValue),
    ]
}
