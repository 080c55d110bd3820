/// SSM Parameter Store's rule for a parameter name: 1–2048 characters of `A-Za-z0-9_.-/` (a
/// leading `/` for hierarchies). One rule for the client that reads a parameter and for the
/// configuration that names one.
package enum SSMParameterName {
    package static let maxBytes = 2048

    package static func isValid(_ name: String) -> Bool {
        (1...maxBytes).contains(name.utf8.count)
            && name.utf8.allSatisfy { ASCII.isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2E || $0 == 0x2D || $0 == 0x2F }
    }
}
