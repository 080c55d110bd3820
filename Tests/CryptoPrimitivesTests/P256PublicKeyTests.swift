import PlatformSupport
import Testing

@testable import CryptoPrimitives

struct P256PublicKeyTests {
    /// Wycheproof's P-256 test key (the first group of the P1363 file).
    static let point = Hex.decode(
        "042927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e"
    )!
    static let message = Hex.decode("313233343030")!
    /// tcId 1 of that group, valid.
    static let signature = Hex.decode(
        "2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76"
    )!

    @Test func buildsFromPointAndSubjectPublicKeyInfo() throws {
        let key = try P256PublicKey(uncompressedPoint: Self.point)
        #expect(key.uncompressedPoint == Self.point)
        #expect(key.subjectPublicKeyInfo.count == 91)
        let again = try P256PublicKey(subjectPublicKeyInfo: key.subjectPublicKeyInfo)
        #expect(again.uncompressedPoint == Self.point)
        #expect(key.verify(signature: Self.signature, message: Self.message))
        #expect(again.verify(signature: Self.signature, message: Self.message))
    }

    @Test func refusesPointsThatAreNotOnTheCurveOrNotUncompressed() {
        var offCurve = Self.point
        offCurve[64] ^= 0x01
        var compressed = [UInt8](Self.point[0..<33])
        compressed[0] = 0x02
        var hybrid = Self.point
        hybrid[0] = 0x06
        let cases: [[UInt8]] = [
            offCurve, compressed, hybrid, [0x00], [], Array(Self.point.dropLast()), Self.point + [0],
            [0x04] + [UInt8](repeating: 0, count: 64),
        ]
        for (i, point) in cases.enumerated() {
            #expect(throws: P256PublicKey.KeyError.invalidKey, "case \(i)") {
                try P256PublicKey(uncompressedPoint: point)
            }
        }
    }

    @Test func refusesOtherKeyEncodings() throws {
        let spki = try P256PublicKey(uncompressedPoint: Self.point).subjectPublicKeyInfo
        // prime239v3 (1.2.840.10045.3.1.6), a named curve whose OID differs from P-256's in its
        // last byte. (Keys on P-384 and with explicit parameters: P256PrivateKeyTests.)
        var otherCurve = spki
        otherCurve[22] = 0x06
        var trailing = spki
        trailing[1] += 1
        trailing.append(0)
        for (i, der) in [otherCurve, trailing, Array(spki.dropLast()), [], spki + [0]].enumerated() {
            #expect(throws: P256PublicKey.KeyError.invalidKey, "case \(i)") {
                try P256PublicKey(subjectPublicKeyInfo: der)
            }
        }
    }

    @Test func refusesSignaturesThatAreNot64BytesOfInRangeScalars() throws {
        let key = try P256PublicKey(uncompressedPoint: Self.point)
        // The same signature in DER (what a JWS must not carry) is refused.
        let der = try #require(ECDSASignature.der(fromRaw: Self.signature))
        #expect(!key.verify(signature: der, message: Self.message))
        for count in [0, 1, 32, 63, 65, 66, 70, 72, 96] {
            #expect(!key.verify(signature: [UInt8](repeating: 1, count: count), message: Self.message))
        }
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(!key.verify(signature: zero + zero, message: Self.message))
        #expect(!key.verify(signature: ECDSASignature.order + Array(Self.signature[32...]), message: Self.message))
        // A flipped bit anywhere in the message or the signature.
        var message = Self.message
        message[0] ^= 1
        #expect(!key.verify(signature: Self.signature, message: message))
        for i in [0, 31, 32, 63] {
            var signature = Self.signature
            signature[i] ^= 0x40
            #expect(!key.verify(signature: signature, message: Self.message), "byte \(i)")
        }
    }
}
