import StrictJSON
import TestSupport

/// Apple's token endpoints on loopback (`python -m signin_tools.serve_standins --apple-auth`): its
/// own Sign in with Apple key, `client_secret` checked as Apple checks it (Python `cryptography`,
/// independent of CryptoPrimitives), id_tokens from the test IdP. One per test, stopped by
/// `stop()` and at the latest when this process exits. A missing venv fails the test.
final class AppleAuthStandIn {
    typealias Failure = StandInProcess.Failure

    private let process: StandInProcess
    /// APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY, APPLE_AUTH_URL, APPLE_CLIENT_ID.
    let environment: [String: String]

    init() throws {
        process = try StandInProcess(["--apple-auth"])
        environment = try process.section("apple_auth")
    }

    func stop() { process.stop() }

    @discardableResult
    func command(_ cmd: JSONValue) throws -> JSONValue { try process.command(cmd) }

    // MARK: - Conveniences

    /// A fresh single-use authorization code for `sub`.
    func code(for sub: String) throws -> String {
        guard let code = try command(["apple_code": .string(sub)])["code"]?.stringValue else {
            throw Failure(description: "no code in answer")
        }
        return code
    }

    /// Every revocation so far, as (token, hint).
    func revoked() throws -> [(token: String, hint: String)] {
        guard let list = try command(["apple_revoked": true])["revoked"]?.arrayValue else {
            throw Failure(description: "no revoked list")
        }
        return list.compactMap { entry in
            guard let pair = entry.arrayValue, pair.count == 2, let token = pair[0].stringValue else { return nil }
            return (token, pair[1].stringValue ?? "")
        }
    }

    func requests() throws -> (token: Int, revoke: Int) {
        let answer = try command(["apple_requests": true])
        guard let t = answer["token"]?.int64Value, let r = answer["revoke"]?.int64Value else {
            throw Failure(description: "bad counts")
        }
        return (Int(t), Int(r))
    }

    func failNext(_ n: Int, status: Int = 503) throws {
        try command(["apple_fail_next": .int(n), "status": .int(status)])
    }

    func setDown(_ down: Bool, hang: Bool = false) throws {
        try command(["apple_down": .bool(down), "hang": .bool(hang)])
    }

    func overrideSub(_ sub: String?) throws { try command(["apple_sub_override": sub.map { .string($0) } ?? .null]) }

    /// A P-256 PKCS#8 PEM that is not the key Apple (the stand-in) knows.
    func foreignKeyPEM() throws -> String {
        guard let pem = try command(["apple_foreign_key": true])["pem"]?.stringValue else {
            throw Failure(description: "no pem")
        }
        return pem
    }
}
