import Foundation
import PlatformSupport
import StrictJSON
import Testing

@testable import CryptoPrimitives

/// Project Wycheproof's RSASSA-PKCS1-v1_5 SHA-256 2048-bit vectors over `RSAPublicKey`: every
/// `valid` vector accepted, every `invalid` one refused, and the `acceptable` ones decided (see
/// docs/decisions/tokens.md, "RSA verification in libcrypto").
struct WycheproofRSATests {
    struct Vector {
        let id: Int
        let result: String
        let flags: [String]
        let message: [UInt8]
        let signature: [UInt8]
    }

    struct Group {
        let key: RSAPublicKey
        let vectors: [Vector]
    }

    /// `acceptable` vectors we refuse, by their flags. MissingNull (a DigestInfo without the
    /// NULL parameter) is a legacy encoding: each message has one valid signature, so we refuse it.
    static let refusedAcceptableFlags: Set<String> = ["MissingNull"]

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    static func str(_ v: JSONValue?, _ what: String) throws -> String {
        guard let s = v?.stringValue else { throw FixtureError(description: "\(what) is not a string") }
        return s
    }

    static func hex(_ v: JSONValue?, _ what: String) throws -> [UInt8] {
        guard let b = Hex.decode(try str(v, what)) else { throw FixtureError(description: "\(what) is not hex") }
        return b
    }

    static func list(_ v: JSONValue?, _ what: String) throws -> [JSONValue] {
        guard let a = v?.arrayValue else { throw FixtureError(description: "\(what) is not an array") }
        return a
    }

    static func load() throws -> (groups: [Group], declaredCount: Int) {
        let url = try #require(
            Bundle.module.url(forResource: "Fixtures/rsa_signature_2048_sha256_test", withExtension: "json"))
        let json = try JSONParser.parse(Array(try Data(contentsOf: url)))
        let declared = try #require(json["numberOfTests"]?.int64Value)
        var groups: [Group] = []
        for g in try list(json["testGroups"], "testGroups") {
            let key = try RSAPublicKey(
                modulus: try hex(g["publicKey"]?["modulus"], "modulus"),
                exponent: try hex(g["publicKey"]?["publicExponent"], "exponent"))
            #expect(key.bits == 2048)
            var vectors: [Vector] = []
            for t in try list(g["tests"], "tests") {
                let id = try #require(t["tcId"]?.int64Value)
                vectors.append(
                    Vector(
                        id: Int(id), result: try str(t["result"], "result"),
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
        #expect(declared >= 259)
    }

    @Test func validVectorsAreAccepted() throws {
        var checked = 0
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "valid" {
                #expect(
                    group.key.verifyPKCS1SHA256(signature: v.signature, message: v.message),
                    "tcId \(v.id) should verify")
                checked += 1
            }
        }
        #expect(checked >= 9)
    }

    @Test func invalidVectorsAreRefused() throws {
        var checked = 0
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "invalid" {
                #expect(
                    !group.key.verifyPKCS1SHA256(signature: v.signature, message: v.message),
                    "tcId \(v.id) (\(v.flags)) must be refused")
                checked += 1
            }
        }
        #expect(checked >= 249)
    }

    @Test func acceptableVectorsAreDecided() throws {
        var checked = 0
        for group in try Self.load().groups {
            for v in group.vectors where v.result == "acceptable" {
                let decided = v.flags.allSatisfy { Self.refusedAcceptableFlags.contains($0) }
                #expect(decided, "tcId \(v.id) has undecided flags \(v.flags): decide and document it")
                #expect(
                    !group.key.verifyPKCS1SHA256(signature: v.signature, message: v.message),
                    "tcId \(v.id) (\(v.flags)) is refused by decision")
                checked += 1
            }
        }
        #expect(checked >= 1)
    }

    /// The digest entry point and the raw-buffer entry point agree with the array one.
    @Test func entryPointsAgree() throws {
        for group in try Self.load().groups {
            for v in group.vectors {
                let byMessage = group.key.verifyPKCS1SHA256(signature: v.signature, message: v.message)
                let byDigest = group.key.verifyPKCS1SHA256(signature: v.signature, digest: SHA256.hash(v.message))
                let byBuffer = v.message.withUnsafeBytes {
                    group.key.verifyPKCS1SHA256(signature: v.signature, message: $0)
                }
                #expect(byMessage == byDigest && byDigest == byBuffer, "tcId \(v.id)")
            }
        }
    }
}
