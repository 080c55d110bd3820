import Foundation

@testable import SignInClient

/// An injected transport: answers each event with `respond` and records what was sent.
final class ScriptedTransport: SignInTransport, @unchecked Sendable {
    typealias Responder = @Sendable (_ function: SignInFunction, _ event: [String: Any]) async throws -> TransportAnswer
    private let lock = NSLock()
    private var sent: [(SignInFunction, [String: Any])] = []
    let respond: Responder

    init(_ respond: @escaping Responder) { self.respond = respond }

    func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer {
        let object = (try? JSONSerialization.jsonObject(with: event)) as? [String: Any] ?? [:]
        lock.withLock { sent.append((function, object)) }
        return try await respond(function, object)
    }

    func count(_ function: SignInFunction, action: String? = nil) -> Int {
        lock.withLock {
            sent.filter { $0.0 == function && (action == nil || $0.1["action"] as? String == action) }.count
        }
    }

    func events() -> [[String: Any]] { lock.withLock { sent.map(\.1) } }

    func presentedTokens() -> [String] { lock.withLock { sent.compactMap { $0.1["refreshToken"] as? String } } }
}

/// Answers shaped as the functions send them.
enum Answers {
    static let iso = Date.ISO8601FormatStyle()

    static func user(_ id: String = "6f1c2a4e-0000-4000-8000-000000000001", appleID: String = "001.a") -> [String: Any]
    {
        [
            "serviceUserID": id, "displayName": "Ada", "email": "ada@example.com", "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdated": "2026-01-01T00:00:00Z", "primaryProvider": "apple",
            "providers": [["type": "apple", "id": appleID, "isPrimary": true, "linkedAt": "2026-01-01T00:00:00Z"]],
            "subscription": ["tier": "free", "storageLimit": 209_715_200, "storageUsed": 0],
            "preferences": ["uploadQuality": "high"],
        ]
    }

    static func session(
        token: String, key: String, expiresIn: TimeInterval = 3600, newUser: Bool? = nil, appleID: String = "001.a"
    ) -> Data {
        var data: [String: Any] = [
            "user": user(appleID: appleID),
            "credentials": [
                "accessKeyId": key, "secretAccessKey": "secret", "sessionToken": "session",
                "expiration": Date().addingTimeInterval(expiresIn).formatted(iso),
            ],
            "storage": ["bucket": "b", "region": "us-east-1", "prefix": "users/u/"],
            "refreshToken": token, "refreshTokenExpiresAt": Date().addingTimeInterval(86400).formatted(iso),
        ]
        if let newUser { data["isNewUser"] = newUser }
        return envelope(data)
    }

    /// The `data` of a session answer, as the store keeps it after a sign-in.
    static func sessionData() throws -> Data {
        let answer = try WireCoding.payload(
            SignInAnswer.self, from: ok(session(token: "rt-0", key: "AK0", newUser: true)), action: "signin"
        ).payload
        return try StoredSession(
            format: 1, refreshToken: answer.refreshToken, refreshTokenExpiresAt: answer.refreshTokenExpiresAt,
            credentials: answer.credentials, storage: answer.storage, user: answer.user, signInProvider: .apple,
            signedInAt: Date(), receivedAt: Date(), rotation: 0
        ).encoded()
    }

    static func envelope(_ data: Any) -> Data {
        try! JSONSerialization.data(withJSONObject: [
            "success": true, "data": data, "meta": ["requestId": "r", "timestamp": Date().formatted(iso)],
        ])
    }

    static func failure(_ code: String, status: Int) -> TransportAnswer {
        TransportAnswer(
            statusCode: status,
            body: try! JSONSerialization.data(withJSONObject: [
                "success": false, "error": ["code": code, "message": "m"], "meta": ["requestId": "r"],
            ]))
    }

    static func ok(_ body: Data) -> TransportAnswer { TransportAnswer(statusCode: 200, body: body) }
}

/// A session over `transport` and `store`, signed in with whatever `transport` answers to auth-signin.
func signedInSession(
    _ transport: ScriptedTransport, store: any SessionStore = InMemorySessionStore(), margin: TimeInterval = 300
) async throws -> SignInSession {
    let session = SignInSession(
        configuration: SignInConfiguration(
            transport: transport, store: store, credentialsMargin: margin, retryDelays: [0.05, 0.05],
            minimumRefreshInterval: 0))
    _ = try await session.signIn(with: .apple, idToken: "id-token")
    return session
}

/// Holds the first answer that reaches it until the test opens it, and tells the test once it
/// got there: the order of a race is set by the test, not by sleeps a busy machine outlasts.
/// Later answers (the sign-out's own call) pass; every wait is bounded (10 s).
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var arrivals = 0, isOpen = false

    /// Called by the transport: the first caller waits until the gate opens.
    func pass() async {
        guard
            lock.withLock({ () -> Bool in
                arrivals += 1
                return arrivals == 1
            })
        else { return }
        await Self.wait { self.lock.withLock { self.isOpen } }
    }

    /// Returns once the first answer is waiting at the gate.
    func reached() async { await Self.wait { self.lock.withLock { self.arrivals > 0 } } }

    func open() { lock.withLock { isOpen = true } }

    private static func wait(until done: () -> Bool) async {
        var polls = 0
        while !done() && polls < 1_000 {
            polls += 1
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
