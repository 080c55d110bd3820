import PlatformSupport

/// The object-key rule this service holds itself to, checked before any request is sent:
/// 1–1024 bytes of `A-Z a-z 0-9 . _ - /`, not starting with `/`, no empty segment (`//`) and no
/// `.` or `..` segment. A trailing `/` is allowed (the `users/{uuid}/` markers). Every key the
/// contract defines fits (`identities/{provider}/{providerID}` with providerID
/// `[A-Za-z0-9._-]{1,255}` other than `.`/`..`, and `users/{uuid}/...`); anything else is a bug
/// or an attack, so it never reaches S3.
package enum ObjectKeyRule {
    static let maxBytes = 1024

    /// Nil when `key` is acceptable, else why not (no key text in the reason).
    package static func problem(_ key: String) -> String? { check(key, isPrefix: false) }

    /// The same rule for a list prefix, which may also be empty.
    package static func prefixProblem(_ prefix: String) -> String? {
        prefix.isEmpty ? nil : check(prefix, isPrefix: true)
    }

    static func check(_ key: String, isPrefix: Bool) -> String? {
        _ = isPrefix
        // Over the UTF-8 bytes in place: `split` over Characters cost 24k instructions a key
        // (docs/decisions/runtime-and-http.md, "Closer to the floor, round 2").
        var key = key
        return key.withUTF8 { bytes -> String? in
            guard !bytes.isEmpty else { return "object key is empty" }
            guard bytes.count <= maxBytes else { return "object key is longer than \(maxBytes) bytes" }
            for b in bytes {
                switch b {
                case _ where ASCII.isAlphanumeric(b), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
                    UInt8(ascii: "/"):
                    continue
                default:
                    return "object key has a character outside [A-Za-z0-9._/-]"
                }
            }
            guard bytes[0] != UInt8(ascii: "/") else { return "object key starts with /" }
            // Segments between slashes; only the last may be empty (a trailing `/`).
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                let length = end - start
                if length == 0 && end < bytes.count { return "object key has an empty segment (//)" }
                if length <= 2 && length > 0 && bytes[start] == UInt8(ascii: ".")
                    && (length == 1 || bytes[start + 1] == UInt8(ascii: "."))
                {
                    return "object key has a . or .. segment"
                }
                start = end + 1
            }
            return nil
        }
    }
}
