import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import CryptoPrimitives

/// Project Wycheproof's ECDSA P-256 / SHA-256 vectors in the IEEE P1363 (`r ‖ s`) form, the form
/// JWS uses, over `P256PublicKey`: every `valid` vector accepted, every `invalid` one refused,
/// and `acceptable` ones refused by decision (see docs/decisions/tokens.md, "ECDSA P-256").
struct WycheproofP256Tests {
    struct Vector {
        let id: Int
        let result: String
        let flags: [String]
        let message: [UInt8]
        let signature: [UInt8]
    }

    struct Group {
        let key: P256PublicKey
        let vectors: [Vector]
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    static func hex(_ v: JSONValue?, _ what: String) throws -> [UInt8] {
        guard let s = v?.stringValue, let b = Hex.decode(s) else {
            throw FixtureError(description: "\(what) is not hex")
        }
        return b
    }

    static func list(_ v: JSONValue?, _ what: String) throws -> [JSONValue] {
        guard let a = v?.arrayValue else { throw FixtureError(description: "\(what) is not an array") }
        return a
    }

    static func load() throws -> (groups: [Group], declaredCount: Int) {
        let url = try #require(
            Bundle.module.url(forResource: "Fixtures/ecdsa_secp256r1_sha256_p1363_test", withExtension: "json"))
        let json = try JSONParser.parse(Array(try Data(contentsOf: url)))
        let declared = try #require(json["numberOfTests"]?.int64Value)
        var groups: [Group] = []
        for g in try list(json["testGroups"], "testGroups") {
            #expect(g["publicKey"]?["curve"]?.stringValue == "secp256r1")
            #expect(g["sha"]?.stringValue == "SHA-256")
            // Both ways in must give the same key.
            let key = try P256PublicKey(uncompressedPoint: try hex(g["publicKey"]?["uncompressed"], "uncompressed"))
            let fromDER = try P256PublicKey(subjectPublicKeyInfo: try hex(g["publicKeyDer"], "publicKeyDer"))
            #expect(key.subjectPublicKeyInfo == fromDER.subjectPublicKeyInfo)
            var vectors: [Vector] = []
            for t in try list(g["tests"], "tests") {
                let id = try #require(t["tcId"]?.int64Value)
                vectors.append(
                    Vector(
                        id: Int(id), result: try #require(t["result"]?.stringValue),
                        flags: try list(t["flags"], "flags").compactMap(\.stringValue),
                        message: try hex(t["msg"], "msg"), signature: try hex(t["sig"], "sig")))
            }
            groups.append(Group(key: key, vectors: vectors))
        }
        return (groups, Int(declared))
    }

    @Test func allVectorsPresent() throws {
        let (groups, declared) = try Self.load()
        #expect(groups.reduce(0) { $0 + $1.vectors.count } == declared)
        #expect(declared >= 262)
    }

    @Test func validVectorsAreAccepted() throws {
        var checked = 0
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "valid" {
                #expect(group.key.verify(signature: v.signature, message: v.message), "tcId \(v.id) should verify")
                checked += 1
            }
        }
        #expect(checked >= 173)
    }

    @Test func invalidVectorsAreRefused() throws {
        var checked = 0
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "invalid" {
                #expect(
                    !group.key.verify(signature: v.signature, message: v.message),
                    "tcId \(v.id) (\(v.flags)) must be refused")
                checked += 1
            }
        }
        #expect(checked >= 89)
    }

    /// This release of the file has no `acceptable` vector; should a newer copy bring some, they
    /// are refused (each message has one valid signature encoding, and Apple signs that way).
    @Test func acceptableVectorsAreRefused() throws {
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "acceptable" {
                #expect(
                    !group.key.verify(signature: v.signature, message: v.message),
                    "tcId \(v.id) (\(v.flags)) is refused by decision")
            }
        }
    }

    /// libcrypto itself refuses r or s equal to 0 or not below n, and r + n (which a verifier
    /// that reduces r modulo n would accept), fed as DER with none of our checks in front.
    @Test func libcryptoRefusesOutOfRangeScalars() throws {
        let group = try #require(try Self.load().groups.first)
        let v = try #require(group.vectors.first(where: { $0.result == "valid" }))
        let r = Array(v.signature[0..<32])
        let s = Array(v.signature[32..<64])
        let ok = v.message.withUnsafeBytes { group.key.verify(derSignature: Self.der(r, s), message: $0) }
        #expect(ok, "the unmodified signature verifies through the DER path")
        let n = ECDSASignature.order
        let zero = [UInt8](repeating: 0, count: 32)
        for (badR, badS) in [(zero, s), (r, zero), (n, s), (r, n), (Self.add(r, n), s), (r, Self.add(s, n))] {
            let refused = v.message.withUnsafeBytes {
                !group.key.verify(derSignature: Self.der(badR, badS), message: $0)
            }
            #expect(refused)
        }
        // The same through the public entry point, where they fit in 32 bytes.
        #expect(!group.key.verify(signature: zero + s, message: v.message))
        #expect(!group.key.verify(signature: r + zero, message: v.message))
        #expect(!group.key.verify(signature: n + s, message: v.message))
        #expect(!group.key.verify(signature: r + n, message: v.message))
    }

    /// DER SEQUENCE of two INTEGERs of any size (short form), for the tests above.
    static func der(_ r: [UInt8], _ s: [UInt8]) -> [UInt8] {
        func integer(_ v: [UInt8]) -> [UInt8] {
            var v = Array(v.drop(while: { $0 == 0 }))
            if v.isEmpty { v = [0] }
            if v[0] & 0x80 != 0 { v.insert(0, at: 0) }
            return [0x02, UInt8(v.count)] + v
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }

    /// a + b as big-endian integers (a carry becomes a leading byte).
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: a.count)
        var carry = 0
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            let sum = Int(a[i]) + Int(b[i]) + carry
            out[i] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        return carry > 0 ? [UInt8(carry)] + out : out
    }
}
