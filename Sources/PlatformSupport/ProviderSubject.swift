/// The rule for a provider's user id (`sub`) in this service: `[A-Za-z0-9._-]{1,255}`, and neither
/// `.` nor `..`. Token verification refuses any other `sub`, and the account store relies on the
/// same rule to use it as an S3 key segment (`identities/{provider}/{sub}`): one rule, one place.
package enum ProviderSubject {
    static let maxBytes = 255

    package static func isValid(_ sub: String) -> Bool {
        let utf8 = sub.utf8
        guard (1...maxBytes).contains(utf8.count), sub != ".", sub != ".." else { return false }
        return utf8.allSatisfy {
            ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }
}
