internal import COpenSSL
import PlatformSupport

/// SHA-256 and HMAC-SHA256 through libcrypto's one-shot calls.
package enum SHA256 {
    static let byteCount = 32

    /// The algorithm object is fetched once: an implicit fetch per call costs a lock and a lookup.
    nonisolated(unsafe) static let md: OpaquePointer = EVP_MD_fetch(nil, "SHA256", nil)!

    package static func hash(_ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { hash(bytes: $0) }
    }

    static func hash(bytes input: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        out.withUnsafeMutableBytes { output in
            _ = EVP_Digest(
                input.baseAddress, input.count, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length, md,
                nil)
        }
        return out
    }

    package static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    package static func hexHash(_ data: [UInt8]) -> String { Hex.encode(hash(data)) }
}

package enum HMACSHA256 {
    package static func authenticate(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        key.withUnsafeBytes { k in
            data.withUnsafeBytes { d in
                out.withUnsafeMutableBufferPointer { o in
                    _ = HMAC(
                        SHA256.md, k.baseAddress, Int32(k.count), d.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        d.count, o.baseAddress, &length)
                }
            }
        }
        return out
    }
}

/// Comparison whose time does not depend on where the inputs differ (refresh-token hashes).
package func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 }
    }
}
