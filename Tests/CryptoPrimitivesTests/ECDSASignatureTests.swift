import PlatformSupport
import Testing

@testable import CryptoPrimitives

/// `r ‖ s` ↔ DER, both ways, at the edges: leading zero bytes, high bits, zero, the largest scalar.
struct ECDSASignatureTests {
    static func scalar(_ hex: String) -> [UInt8] {
        let bytes = Hex.decode(hex)!
        return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
    }

    @Test func plainScalarsEncodeAsIs() {
        let r = [UInt8](repeating: 0x11, count: 32)
        let s = [UInt8](repeating: 0x22, count: 32)
        let der = ECDSASignature.der(fromRaw: r + s)
        #expect(der == [0x30, 68, 0x02, 32] + r + [0x02, 32] + s)
        #expect(ECDSASignature.raw(fromDER: der!) == r + s)
    }

    @Test func highBitGetsAZeroByte() {
        let r = [UInt8](repeating: 0x80, count: 32)
        let s = [UInt8](repeating: 0xff, count: 32)
        let der = ECDSASignature.der(fromRaw: r + s)!
        #expect(der == [0x30, 70, 0x02, 33, 0x00] + r + [0x02, 33, 0x00] + s)
        #expect(ECDSASignature.raw(fromDER: der) == r + s)
    }

    @Test func leadingZerosAreDroppedAndPutBack() {
        // r has one leading zero byte, s has many and then a high bit.
        let r = Self.scalar("00" + String(repeating: "7f", count: 31))
        let s = Self.scalar("0000000000" + "80" + String(repeating: "01", count: 26))
        let der = ECDSASignature.der(fromRaw: r + s)!
        #expect(der == [0x30, 63, 0x02, 31] + r.dropFirst() + [0x02, 28, 0x00] + s.dropFirst(5))
        #expect(ECDSASignature.raw(fromDER: der) == r + s)
        // The smallest scalars: 1 and 0 (the second is never valid, but the encoding is defined).
        let one = Self.scalar("01")
        let zero = [UInt8](repeating: 0, count: 32)
        let tiny = ECDSASignature.der(fromRaw: one + zero)!
        #expect(tiny == [0x30, 6, 0x02, 1, 0x01, 0x02, 1, 0x00])
        #expect(ECDSASignature.raw(fromDER: tiny) == one + zero)
    }

    @Test func rawMustBe64Bytes() {
        for count in [0, 1, 32, 63, 65, 70, 72, 128] {
            #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 1, count: count)) == nil)
        }
    }

    @Test func nonCanonicalDERIsRefused() {
        let r = [UInt8](repeating: 0x11, count: 32)
        let good: [UInt8] = [0x30, 68, 0x02, 32] + r + [0x02, 32] + r
        #expect(ECDSASignature.raw(fromDER: good) != nil)
        let cases: [[UInt8]] = [
            [],
            [0x30, 0],
            good + [0],  // trailing byte
            [0x31] + good.dropFirst(),  // SET, not SEQUENCE
            [0x30, 0x81, 68] + good.dropFirst(2),  // long-form length
            [0x30, 69, 0x02, 33, 0x00] + r + [0x02, 32] + r,  // zero byte before a clear high bit
            [0x30, 68, 0x02, 32, 0x91] + r.dropFirst() + [0x02, 32] + r,  // negative r
            [0x30, 36, 0x02, 32] + r + [0x02, 0],  // empty INTEGER
            [0x30, 35, 0x02, 33, 0x01] + r,  // one INTEGER only, 33 significant bytes
            [0x30, 70, 0x02, 34, 0x01, 0x01] + r + [0x02, 32] + r,  // r longer than 32 bytes
            [0x30, 68, 0x04, 32] + r + [0x02, 32] + r,  // OCTET STRING, not INTEGER
            [0x30, 69, 0x02, 32] + r + [0x02, 33] + r,  // s runs past the end
        ]
        for (i, bad) in cases.enumerated() {
            #expect(ECDSASignature.raw(fromDER: bad) == nil, "case \(i)")
        }
    }

    @Test func scalarRangeIsOneToNMinusOne() {
        let n = ECDSASignature.order
        var nMinusOne = n
        nMinusOne[31] -= 1
        #expect(ECDSASignature.isValidScalar(Self.scalar("01")[...]))
        #expect(ECDSASignature.isValidScalar(nMinusOne[...]))
        #expect(!ECDSASignature.isValidScalar([UInt8](repeating: 0, count: 32)[...]))
        #expect(!ECDSASignature.isValidScalar(n[...]))
        #expect(!ECDSASignature.isValidScalar([UInt8](repeating: 0xff, count: 32)[...]))
        #expect(!ECDSASignature.isValidScalar(Self.scalar("01").dropFirst()))
    }

    @Test func roundTripsOverManyScalars() {
        // Scalars with 0–31 leading zero bytes and either high bit, both directions.
        for zeros in 0..<32 {
            for high: UInt8 in [0x01, 0x7f, 0x80, 0xff] {
                let r = [UInt8](repeating: 0, count: zeros) + [high] + [UInt8](repeating: 0xa5, count: 31 - zeros)
                let s = Array(r.reversed())
                let der = ECDSASignature.der(fromRaw: r + s)!
                #expect(ECDSASignature.raw(fromDER: der) == r + s, "zeros \(zeros), high \(high)")
            }
        }
    }
}
