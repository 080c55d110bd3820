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
        let bytes = Array(key.utf8)
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
        guard bytes.first != UInt8(ascii: "/") else { return "object key starts with /" }
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        for (n, segment) in segments.enumerated() {
            let isLast = n == segments.count - 1
            if segment.isEmpty && !isLast { return "object key has an empty segment (//)" }
            if segment == "." || segment == ".." { return "object key has a . or .. segment" }
        }
        _ = isPrefix
        return nil
    }
}
