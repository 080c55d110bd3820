#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes from the kernel CSPRNG; used for refresh tokens, UUIDs and retry jitter.
package enum SecureRandom {
    /// The standard library's SystemRandomNumberGenerator is the kernel CSPRNG on Linux
    /// (getrandom(2), blocking until seeded), documented as cryptographically secure.
    package static func bytes(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        var out = [UInt8]()
        out.reserveCapacity(count + 8)
        while out.count < count {
            var word = g.next()
            withUnsafeBytes(of: &word) { out.append(contentsOf: $0) }
        }
        return Array(out.prefix(count))
    }

    /// Uniform in 0..<upperBound.
    package static func uniform(_ upperBound: UInt64) -> UInt64 {
        precondition(upperBound > 0)
        var g = SystemRandomNumberGenerator()
        return UInt64.random(in: 0..<upperBound, using: &g)
    }

    /// A lowercase RFC 4122 version-4 UUID ("6f1c…-4…-[89ab]…").
    package static func uuidV4() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        return UUIDText.format(b)
    }
}
