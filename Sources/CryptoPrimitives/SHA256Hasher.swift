internal import COpenSSL

/// SHA-256 over one libcrypto digest context kept between messages. The one-shot `SHA256.hash`
/// makes and frees a context per call; a signer that hashes twice per request keeps this one.
/// One owner at a time: not Sendable, not thread-safe.
package final class SHA256Hasher {
    private let context: OpaquePointer

    package init() {
        context = EVP_MD_CTX_new()!
    }

    deinit { EVP_MD_CTX_free(context) }

    package func hash(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                // Init re-uses the context's allocation; each step only fails on allocation
                // failure, which the result's length shows.
                guard EVP_DigestInit_ex2(context, SHA256.md, nil) == 1,
                    EVP_DigestUpdate(context, input.baseAddress, input.count) == 1,
                    EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1
                else {
                    length = 0
                    return
                }
            }
        }
        precondition(length == UInt32(SHA256.byteCount), "SHA-256 failed in libcrypto")
        return out
    }
}
