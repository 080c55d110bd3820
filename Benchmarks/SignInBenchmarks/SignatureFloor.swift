import Benchmark
import PlatformSupport

/// The floor a full verification is printed beside: libcrypto's check of the same signature over
/// the same signing input with the same key, and nothing else.
struct SignatureFloor {
    let check: () -> Bool

    /// The signing input, the decoded signature and the decoded header of a compact JWS.
    static func parts(of jws: String) -> (message: [UInt8], signature: [UInt8], header: [UInt8]) {
        let bytes = Array(jws.utf8)
        guard let parts = try? CompactJWSParts(bytes), let signature = Base64.urlDecode(parts.signature),
            let header = Base64.urlDecode(parts.header)
        else { fail("a bench fixture is not a compact JWS") }
        return (Array(parts.signingInput), signature, header)
    }
}

/// Registers the floor benchmark `name`; `make` builds the check once (it must pass).
func registerSignatureFloor(_ name: String, _ make: @escaping () throws -> () -> Bool) {
    Benchmark(name) { (benchmark: Benchmark, floor: SignatureFloor) in
        for _ in benchmark.scaledIterations { blackHole(floor.check()) }
    } setup: {
        prepare {
            let floor = SignatureFloor(check: try make())
            guard floor.check() else { fail("\(name): the signature does not verify") }
            return floor
        }
    }
}
