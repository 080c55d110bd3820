internal import COpenSSL

/// HMAC-SHA256 under one key, over a libcrypto MAC context kept between messages: the key's inner
/// and outer pads are hashed once, when the context is keyed, and each message then costs only its
/// own blocks (the one-shot `HMACSHA256.authenticate` fetched the algorithm and made, keyed and
/// freed a context per call: ~24k instructions per SigV4 signature, docs/decisions/runtime-and-http.md,
/// "Closer to the floor, round 2"). One owner at a time: not Sendable, not thread-safe.
package final class HMACSHA256Key {
    /// Fetched once, as `SHA256.md` is.
    nonisolated(unsafe) private static let mac: OpaquePointer = EVP_MAC_fetch(nil, "HMAC", nil)!
    private let context: OpaquePointer

    package init(_ key: [UInt8]) {
        context = EVP_MAC_CTX_new(Self.mac)!
        let keyed = "SHA256".withCString { name in
            var params = [
                OSSL_PARAM_construct_utf8_string("digest", UnsafeMutablePointer(mutating: name), 0),
                OSSL_PARAM_construct_end(),
            ]
            // A non-null pointer even for an empty key: a null key means "keep the one set before".
            return (key.isEmpty ? [0] : key).withUnsafeBufferPointer { k in
                EVP_MAC_init(context, k.baseAddress, key.count, &params)
            }
        }
        precondition(keyed == 1, "HMAC-SHA256 key setup failed in libcrypto")
    }

    deinit { EVP_MAC_CTX_free(context) }

    package func authenticate(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length = 0
        data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                // A null key restarts the MAC with the key already set (its pads are kept).
                guard EVP_MAC_init(context, nil, 0, nil) == 1,
                    EVP_MAC_update(context, input.baseAddress, input.count) == 1,
                    EVP_MAC_final(context, output.baseAddress, &length, SHA256.byteCount) == 1
                else {
                    length = 0
                    return
                }
            }
        }
        precondition(length == SHA256.byteCount, "HMAC-SHA256 failed in libcrypto")
        return out
    }
}
