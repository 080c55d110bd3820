import TokenVerification

extension Profile {
    /// Display name: the event's fullName, else the token's name, else the email's local part.
    package static func displayName(_ identity: VerifiedIdentity, _ fullName: String?) -> String {
        if let n = fullName?.trimmingASCIISpaces(), !n.isEmpty { return n }
        if let n = identity.name?.trimmingASCIISpaces(), !n.isEmpty { return n }
        if let e = identity.email, let at = e.firstIndex(of: "@"), at > e.startIndex { return String(e[..<at]) }
        return "User"
    }
}
