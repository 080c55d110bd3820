import StrictJSON
import TestSupport

/// The loopback test identity provider (`python -m signin_tools.serve_standins --idp`): an
/// independent implementation (Python `cryptography`) mints every token and serves the JWKS.
/// Started per test, stopped by `stop()` and at the latest when this process exits; if it cannot
/// be started, the test fails (a test that needs it never passes without it).
final class StandIn {
    typealias Failure = StandInProcess.Failure

    private let process: StandInProcess
    /// APPLE_AUDIENCES, GOOGLE_AUDIENCES, APPLE_JWKS_URL, GOOGLE_JWKS_URL and Firebase's.
    let environment: [String: String]

    init() throws {
        process = try StandInProcess(["--idp"])
        environment = try process.section("idp")
    }

    func stop() { process.stop() }

    @discardableResult
    func command(_ cmd: JSONValue) throws -> JSONValue { try process.command(cmd) }

    // MARK: - Conveniences

    var appleAudience: String { environment["APPLE_AUDIENCES"] ?? "" }
    var googleAudience: String { environment["GOOGLE_AUDIENCES"] ?? "" }
    var firebaseProjectID: String { environment["FIREBASE_PROJECT_ID"] ?? "" }

    /// A token from the stand-in. `template` holds keyword arguments of
    /// `IdentityProvider.apple_claims`/`google_claims`/`firebase_claims` (the real claim shapes); `claims` are
    /// merged over them, `drop` removed; the other options forge (see `IdentityProvider.forge`).
    func mint(
        _ provider: String, template: JSONValue? = nil, claims: JSONValue? = nil, drop: [String] = [],
        header: JSONValue? = nil, sign: String? = nil, kid: String? = nil, rawClaims: String? = nil,
        rawHeader: String? = nil
    ) throws -> String {
        var cmd = JSONObject([("mint", .string(provider))])
        cmd["template"] = template ?? ["sub": "001234.5f1e2d3c4b5a69788796a5b4c3d2e1f0.1234"]
        if let claims { cmd["claims"] = claims }
        if !drop.isEmpty { cmd["drop"] = .array(drop.map { .string($0) }) }
        if let header { cmd["header"] = header }
        if let sign { cmd["sign"] = .string(sign) }
        if let kid { cmd["kid"] = .string(kid) }
        if let rawClaims { cmd["raw_claims"] = .string(rawClaims) }
        if let rawHeader { cmd["raw_header"] = .string(rawHeader) }
        guard let token = try command(.object(cmd))["token"]?.stringValue else {
            throw Failure(description: "no token in answer")
        }
        return token
    }

    func fetches() throws -> (apple: Int, google: Int, firebase: Int) {
        let answer = try command(["jwks_fetches": true])
        guard let a = answer["apple"]?.int64Value, let g = answer["google"]?.int64Value,
            let f = answer["firebase"]?.int64Value
        else {
            throw Failure(description: "bad counts")
        }
        return (Int(a), Int(g), Int(f))
    }

    func setFailing(_ failing: Bool) throws { try command(["idp_fail": .bool(failing)]) }

    func setMaxAge(_ seconds: Int?) throws { try command(["max_age": seconds.map { .int($0) } ?? .null]) }

    func rotate(_ provider: String) throws -> String {
        guard let kid = try command(["rotate": .string(provider)])["kid"]?.stringValue else {
            throw Failure(description: "no kid")
        }
        return kid
    }

    func addKey(_ provider: String, bits: Int, kid: String) throws {
        try command(["add_key": .string(provider), "bits": .int(bits), "kid": .string(kid)])
    }
}
