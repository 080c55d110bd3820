import Foundation
import SignInClient

/// The command line: `client-check SCENARIO --signin URL --refresh URL --link URL --apple TOKEN
/// [--google TOKEN] --store PATH`. Prints one JSON line (the test reads it); never a token.
struct Arguments {
    var scenario: String
    var values: [String: String] = [:]

    init(_ argv: [String]) {
        scenario = argv.count > 1 ? argv[1] : ""
        var index = 2
        while index + 1 < argv.count {
            values[String(argv[index].dropFirst(2))] = argv[index + 1]
            index += 2
        }
    }

    func url(_ name: String) -> URL { URL(string: values[name] ?? "http://127.0.0.1:1/")! }
    subscript(_ name: String) -> String { values[name] ?? "" }
}

/// A wall clock the scenario can move forward (to make credentials "about to expire").
final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0
    func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
    func advance(to date: Date) { lock.withLock { offset = date.timeIntervalSinceNow } }
    func advance(by seconds: TimeInterval) { lock.withLock { offset += seconds } }
}

/// A file store whose writes fail when armed (a locked Keychain, a full disk): the next `count`
/// writes after `skipping` that succeed.
final class FlakyStore: SessionStore, @unchecked Sendable {
    let inner: FileSessionStore
    private let lock = NSLock()
    private var skips = 0
    private var failures = 0
    private(set) var failed = 0

    init(path: String) { inner = FileSessionStore(url: URL(fileURLWithPath: path)) }

    func failNextWrites(_ count: Int, skipping: Int = 0) {
        lock.withLock {
            failures = count
            skips = skipping
        }
    }
    var failedWrites: Int { lock.withLock { failed } }

    func load() throws -> Data? { try inner.load() }
    func save(_ data: Data) throws {
        let fail = lock.withLock { () -> Bool in
            guard failures > 0 else { return false }
            guard skips == 0 else {
                skips -= 1
                return false
            }
            failures -= 1
            failed += 1
            return true
        }
        if fail { throw SessionStoreError("injected write failure") }
        try inner.save(data)
    }
    func remove() throws { try inner.remove() }
}

/// Records every auth state the session publishes, as short names.
actor StateLog {
    private(set) var names: [String] = []
    func append(_ state: AuthState) {
        switch state {
        case .signedIn: names.append("signedIn")
        case .refreshed: names.append("refreshed")
        case .signedOut(let reason): names.append("signedOut(\(reason))")
        case .unknown: names.append("unknown")
        }
    }

    /// The names once a sign-out followed the sign-in (at most 5 s): the stream delivers states
    /// on its own task, so reading right after the action could come too early.
    func namesOnceSignedOut() async -> [String] {
        for _ in 0..<250 {
            if let i = names.firstIndex(of: "signedIn"), names[i...].contains(where: { $0.hasPrefix("signedOut(") }) {
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return names
    }

    static func watching(_ session: SignInSession) async -> StateLog {
        let log = StateLog()
        let stream = await session.authStates()
        Task {
            for await state in stream { await log.append(state) }
        }
        return log
    }
}

struct Harness {
    let arguments: Arguments
    let clock = MovableClock()
    let store: FlakyStore

    init(_ arguments: Arguments) {
        self.arguments = arguments
        store = FlakyStore(path: arguments["store"])
    }

    /// The default transport (the functions' timeouts, template.yaml's, plus 5 s), unless a scenario
    /// shortens them.
    func transport(
        functionTimeout: TimeInterval? = nil, allowance: TimeInterval = 5, refresh: URL? = nil
    )
        -> FunctionURLTransport
    {
        FunctionURLTransport(
            signIn: arguments.url("signin"), refresh: refresh ?? arguments.url("refresh"), link: arguments.url("link"),
            functionTimeouts: functionTimeout.map { t in [.signin: t, .refresh: t, .link: t] } ?? [:],
            networkAllowance: allowance)
    }

    /// A session with the defaults an app has (v5: no retry window; `retryDelays` shortens one
    /// refresh's backoff where a scenario wants it short).
    func session(
        store: (any SessionStore)? = nil, transport: FunctionURLTransport? = nil,
        retryDelays: [TimeInterval] = [0.5, 1, 2, 4], refreshPolicy: SignInConfiguration.RefreshPolicy = .refreshes
    ) -> SignInSession {
        let clock = self.clock
        return SignInSession(
            configuration: SignInConfiguration(
                transport: transport ?? self.transport(), store: store ?? self.store, refreshPolicy: refreshPolicy,
                retryDelays: retryDelays, device: "client-check", clock: { clock.now() }))
    }

    func storedData() -> Data? { try? store.inner.load() }
}

func errorName(_ error: SignInError) -> String {
    switch error {
    case .server(let code, _, _): return code.rawValue
    case .offline: return "offline"
    case .timedOut: return "timedOut"
    case .answerLost: return "answerLost"
    case .unavailable(let status): return "unavailable(\(status))"
    case .malformedAnswer(_, let path, _): return "malformed(\(path))"
    case .sessionChanged: return "sessionChanged"
    case .notSignedIn: return "notSignedIn"
    case .refreshNotAllowed: return "refreshNotAllowed"
    case .storeUnavailable: return "storeUnavailable"
    default: return "\(error)"
    }
}

func emit(_ result: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// One top-level field of the stored session's JSON (the store's format is the client's own; the
/// check reads it as an app's extension on another version would).
func storedField(_ name: String, _ harness: Harness) -> Any? {
    guard let data = harness.storedData(),
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else { return nil }
    return object[name]
}
