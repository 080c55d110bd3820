import Foundation

/// The Keychain on Apple platforms: one generic-password item.
///
/// - `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: a background refresh can write the rotated
///   token while the device is locked, and the item never moves to another device through a
///   backup (a restored device would replay a rotated-out token and revoke the session).
/// - One `service` for the app and its extensions (`defaultService`, not the bundle id, which
///   differs in each extension); share it through `accessGroup`. The bundle-id location earlier
///   versions used is moved over at the main app's first read (`legacyServices`).
/// - The data-protection keychain on macOS; an unsigned tool, which gets
///   `errSecMissingEntitlement` there forever, falls back to the login keychain (see
///   `allowsLoginKeychainFallback`).
///
/// The logic lives here and is tested on Linux against a fake keychain; every Security call is in
/// `SecurityKeychainBackend` (docs/client.md, "What the Linux build proves").
public struct KeychainSessionStore: SessionStore {
    /// The service the app and its extensions share unless told otherwise.
    public static let defaultService = "SignInClient"

    public var service: String
    public var account: String
    public var accessGroup: String?
    /// The data-protection keychain on macOS (no login-keychain prompt). Ignored on iOS.
    public var useDataProtectionKeychain: Bool
    /// macOS: when the data-protection keychain answers `errSecMissingEntitlement` (an unsigned
    /// command-line tool), use the login keychain instead. Never with an `accessGroup` (sharing
    /// needs the entitlement: its absence is a setup error, reported as such).
    public var allowsLoginKeychainFallback: Bool
    /// Where earlier versions stored the session: read when nothing is at `service`, moved there,
    /// then deleted; also deleted by `remove()`, so it can never come back.
    public var legacyServices: [String]
    let backend: any KeychainBackend

    package init(
        service: String = defaultService, account: String = "session", accessGroup: String? = nil,
        useDataProtectionKeychain: Bool = true, allowsLoginKeychainFallback: Bool = true,
        legacyServices: [String] = [], backend: any KeychainBackend
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.useDataProtectionKeychain = useDataProtectionKeychain
        self.allowsLoginKeychainFallback = allowsLoginKeychainFallback
        self.legacyServices = legacyServices.filter { $0 != service }
        self.backend = backend
    }

    /// What versions before issue 24 used as the service: the bundle id. Only the main app
    /// migrates (an extension's bundle id never held the app's session).
    static func legacyServices(bundleIdentifier: String?, bundlePathExtension: String) -> [String] {
        guard bundlePathExtension != "appex", let bundleIdentifier else { return [] }
        return [bundleIdentifier]
    }

    func item(_ service: String) -> KeychainItem {
        KeychainItem(
            service: service, account: account, accessGroup: accessGroup,
            useDataProtectionKeychain: useDataProtectionKeychain)
    }

    public func load() throws -> Data? {
        if let data = try read(item(service)) { return data }
        for legacy in legacyServices {
            guard let data = try read(item(legacy)) else { continue }
            // The shared location first, then the old one goes: a crash between them loses nothing.
            guard (try? save(data)) != nil else { return data }
            _ = withFallback(item(legacy)) { backend.delete($0) }
            return data
        }
        return nil
    }

    public func save(_ data: Data) throws {
        let target = item(service)
        for _ in 0..<3 {
            var status = withFallback(target) {
                backend.update($0, data: data, accessibility: .afterFirstUnlockThisDeviceOnly)
            }
            if status == KeychainStatus.itemNotFound {
                status = withFallback(target) {
                    backend.add($0, data: data, accessibility: .afterFirstUnlockThisDeviceOnly)
                }
                // Another process added it between our update and our add: update that one.
                if status == KeychainStatus.duplicateItem { continue }
            }
            guard status == KeychainStatus.success else { throw KeychainStatus.error(status, "write") }
            return
        }
        throw SessionStoreError("keychain write failed (the item kept appearing and disappearing)")
    }

    public func remove() throws {
        for service in [service] + legacyServices {
            let status = withFallback(item(service)) { backend.delete($0) }
            guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
                throw KeychainStatus.error(status, "delete")
            }
        }
    }

    func read(_ item: KeychainItem) throws -> Data? {
        let read = withFallback(item, backend.copyData, status: \.status)
        switch read.status {
        case KeychainStatus.success:
            // A success whose result is not data is an error, never "nothing stored".
            guard let data = read.result as? Data else { throw SessionStoreError("keychain read returned no data") }
            return data
        case KeychainStatus.itemNotFound:
            // Before the first unlock (a prewarmed launch) "not found" is "not readable now": unknown.
            guard backend.isProtectedDataAvailable() else {
                throw KeychainStatus.error(KeychainStatus.interactionNotAllowed, "read")
            }
            return nil
        default: throw KeychainStatus.error(read.status, "read")
        }
    }
}
