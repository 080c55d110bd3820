import CLoopbackStandIn

/// The in-process loopback stand-in for S3, STS and the JWKS host (CLoopbackStandIn), started once
/// per run with the test IdP's Apple keys at `appleJWKSURL`.
enum StandIn {
    static let port: Int = {
        let port = lsi_start()
        guard port > 0 else { fail("the loopback stand-in did not start") }
        let jwks = Fixtures.shared.appleJWKS
        let stored = jwks.withUnsafeBytes { lsi_put("/jwks/apple", "application/json", $0.baseAddress, $0.count) }
        guard stored == 0 else { fail("the stand-in refused the JWKS") }
        return Int(port)
    }()

    static var endpoint: String { "http://127.0.0.1:\(port)" }
    static var appleJWKSURL: String { endpoint + "/jwks/apple" }
}
