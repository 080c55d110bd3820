import PlatformSupport
import Testing

@testable import CryptoPrimitives

struct RSAPublicKeyTests {
    /// Wycheproof's 2048-bit test key (tcId 1's group).
    static let modulus = Hex.decode(
        "00a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d5"
    )!

    @Test func buildsFromJWKComponents() throws {
        let key = try RSAPublicKey(modulus: Self.modulus, exponent: [1, 0, 1])
        #expect(key.bits == 2048)
        #expect(key.signatureByteCount == 256)
    }

    @Test func refusesSmallModulus() {
        // 1024-bit odd modulus: top bit set.
        var n = [UInt8](repeating: 0xab, count: 128)
        n[0] = 0xc1
        n[127] = 0x01
        #expect(throws: RSAPublicKey.KeyError.tooSmall(bits: 1024)) {
            try RSAPublicKey(modulus: n, exponent: [1, 0, 1])
        }
    }

    @Test func refusesDegenerateComponents() {
        for e: [UInt8] in [[], [0], [1], [0, 1], [2], [1, 0, 0], [1, 2, 3, 4, 5, 6, 7, 8, 9]] {
            #expect(throws: RSAPublicKey.KeyError.invalidComponents) {
                try RSAPublicKey(modulus: Self.modulus, exponent: e)
            }
        }
        var even = Self.modulus
        even[even.count - 1] &= 0xfe
        #expect(throws: RSAPublicKey.KeyError.invalidComponents) {
            try RSAPublicKey(modulus: even, exponent: [1, 0, 1])
        }
        #expect(throws: RSAPublicKey.KeyError.invalidComponents) { try RSAPublicKey(modulus: [], exponent: [1, 0, 1]) }
        #expect(throws: RSAPublicKey.KeyError.invalidComponents) {
            try RSAPublicKey(modulus: [0, 0], exponent: [1, 0, 1])
        }
    }

    @Test func refusesWrongSignatureLengths() throws {
        let key = try RSAPublicKey(modulus: Self.modulus, exponent: [1, 0, 1])
        for count in [0, 1, 255, 257, 512] {
            #expect(!key.verifyPKCS1SHA256(signature: [UInt8](repeating: 1, count: count), message: [1, 2, 3]))
        }
        #expect(!key.verifyPKCS1SHA256(signature: [UInt8](repeating: 1, count: 256), digest: [1, 2, 3]))
    }

    @Test func digestsMatchKnownAnswers() {
        #expect(SHA256.hexHash(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEqual([1, 2], [1, 2, 3]))
    }
}
