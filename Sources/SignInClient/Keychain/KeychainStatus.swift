/// The OSStatus values the store tells apart, as Apple's Security defines them
/// (apple-oss-distributions/Security, base/SecBase.h; KeychainStatusTests compares them with the
/// header mirror, Tests/Mirrors/SecItemMirror).
package enum KeychainStatus {
    package static let success: Int32 = 0
    package static let duplicateItem: Int32 = -25299
    package static let itemNotFound: Int32 = -25300
    /// Before the first unlock after a restart (or prewarming): "unknown", never "nothing stored".
    package static let interactionNotAllowed: Int32 = -25308
    package static let missingEntitlement: Int32 = -34018

    /// The store's error for a status, naming the operation and the status, never any content.
    static func error(_ status: Int32, _ operation: String) -> SessionStoreError {
        switch status {
        case interactionNotAllowed: return SessionStoreError("keychain locked (before first unlock)")
        case missingEntitlement:
            return SessionStoreError(
                "keychain \(operation) failed: entitlement missing (is the access group in keychain-access-groups?)")
        default: return SessionStoreError("keychain \(operation) failed (OSStatus \(status))")
        }
    }
}
