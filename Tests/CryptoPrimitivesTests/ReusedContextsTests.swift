import TestSupport
import Testing

@testable import CryptoPrimitives

/// The contexts a signer keeps between messages give what the one-shot calls give, message after
/// message (a restarted HMAC keeps its key; a re-initialized digest starts empty).
@Suite struct ReusedContextsTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    @Test func rfc4231Vectors() {
        // RFC 4231 §4.2 and §4.3 (test cases 1 and 2).
        let one = HMACSHA256Key([UInt8](repeating: 0x0b, count: 20))
        let two = HMACSHA256Key(Array("Jefe".utf8))
        for _ in 0..<3 {
            #expect(
                hex(one.authenticate(Array("Hi There".utf8)))
                    == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
            #expect(
                hex(two.authenticate(Array("what do ya want for nothing?".utf8)))
                    == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }
    }

    @Test func matchTheOneShotCallsMessageAfterMessage() {
        var random = SeededRandom(seed: 4231)
        let hasher = SHA256Hasher()
        for _ in 0..<50 {
            let key = random.bytes(random.below(100))
            let mac = HMACSHA256Key(key)
            for _ in 0..<10 {
                let message = random.bytes(random.below(300))
                #expect(mac.authenticate(message) == HMACSHA256.authenticate(message, key: key))
                #expect(hasher.hash(message) == SHA256.hash(message))
            }
        }
        #expect(hex(hasher.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
