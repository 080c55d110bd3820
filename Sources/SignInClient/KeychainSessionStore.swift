#if canImport(Security)
import Foundation
import Security

/// The Keychain on Apple platforms: one generic-password item, `kSecAttrAccessibleAfterFirstUnlock`
/// so that a background refresh can write the rotated token while the device is locked (a
/// `WhenUnlocked` item makes the write fail and the old, rotated-out token be used later), and the
/// data-protection keychain on macOS (no login-keychain prompt). `accessGroup` shares the session
/// with app extensions; then only the main app refreshes (`SignInConfiguration.refreshPolicy`).
///
/// Not compiled on Linux (no Security framework): kept correct by review against Apple's
/// documentation of SecItemCopyMatching/SecItemAdd/SecItemUpdate/SecItemDelete.
public struct KeychainSessionStore: SessionStore {
    public var service: String
    public var account: String
    public var accessGroup: String?
    /// The data-protection keychain on macOS (no login-keychain prompt); it needs a signed app with
    /// a keychain entitlement: set false for an unsigned command-line tool. Ignored on iOS.
    public var useDataProtectionKeychain: Bool

    public init(
        service: String = Bundle.main.bundleIdentifier ?? "SignInClient", account: String = "session",
        accessGroup: String? = nil, useDataProtectionKeychain: Bool = true
    ) {
        self.useDataProtectionKeychain = useDataProtectionKeychain
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    private var baseQuery: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: useDataProtectionKeychain,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func load() throws -> Data? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return result as? Data
        case errSecItemNotFound: return nil
        // Locked (before first unlock, prewarming): unknown, not "no session".
        case errSecInteractionNotAllowed: throw SessionStoreError("keychain locked")
        default: throw SessionStoreError("keychain read failed (OSStatus \(status))")
        }
    }

    public func save(_ data: Data) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        var status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let item = baseQuery.merging(attributes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw SessionStoreError("keychain write failed (OSStatus \(status))") }
    }

    public func remove() throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw SessionStoreError("keychain delete failed (OSStatus \(status))")
        }
    }
}
#endif
