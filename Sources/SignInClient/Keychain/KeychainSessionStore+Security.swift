#if canImport(Security)
import Foundation

extension KeychainSessionStore {
    /// The store for an app and its extensions: give each the same `accessGroup` (listed in every
    /// target's keychain-access-groups) and leave `service` at its default. The main app moves a
    /// session an earlier version stored under its bundle id at its first read.
    public init(
        service: String = defaultService, account: String = "session", accessGroup: String? = nil,
        useDataProtectionKeychain: Bool = true, allowsLoginKeychainFallback: Bool = true,
        legacyServices: [String]? = nil
    ) {
        self.init(
            service: service, account: account, accessGroup: accessGroup,
            useDataProtectionKeychain: useDataProtectionKeychain,
            allowsLoginKeychainFallback: allowsLoginKeychainFallback,
            legacyServices: legacyServices
                ?? Self.legacyServices(
                    bundleIdentifier: Bundle.main.bundleIdentifier,
                    bundlePathExtension: Bundle.main.bundleURL.pathExtension),
            backend: SecurityKeychainBackend())
    }
}
#endif
