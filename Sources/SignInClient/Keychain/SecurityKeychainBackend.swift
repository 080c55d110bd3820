// The one file that calls Apple's Security framework. On Apple platforms it is part of
// SignInClient. On Linux, Tests/KeychainBackendTypecheck compiles this same file (a symlink)
// against Tests/Mirrors/SecItemMirror, a header holding exactly the SecItem.h/SecBase.h
// declarations used here: a drifted name, argument or type fails that build. The two bridging
// helpers at the end are plain casts on Darwin; Linux has no such bridging (only a Mac proves them).
#if canImport(Security)
import Foundation
import Security
#elseif KEYCHAIN_BACKEND_TYPECHECK
import Foundation
import SecItemMirror
import SignInClient
#endif

#if canImport(Security) || KEYCHAIN_BACKEND_TYPECHECK
struct SecurityKeychainBackend: KeychainBackend {
    func copyData(_ item: KeychainItem) -> KeychainRead {
        var query = attributes(item)
        query[key(kSecReturnData)] = true
        query[key(kSecMatchLimit)] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(cfDictionary(query), &result)
        return KeychainRead(status: status, result: result)
    }

    func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        SecItemAdd(cfDictionary(attributes(item).merging(values(data, accessibility)) { $1 }), nil)
    }

    func update(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        SecItemUpdate(cfDictionary(attributes(item)), cfDictionary(values(data, accessibility)))
    }

    func delete(_ item: KeychainItem) -> Int32 { SecItemDelete(cfDictionary(attributes(item))) }

    /// Probes a file of the same protection class as the item (`completeUntilFirstUserAuthentication`,
    /// the file counterpart of `AfterFirstUnlock`): before the first unlock it cannot be opened, nor
    /// created. Foundation only: UIApplication's `isProtectedDataAvailable` is main-actor bound,
    /// unknown to extensions, and tracks the Complete class (false whenever the phone is locked,
    /// where a background refresh must still read the item). macOS and Linux do not enforce the
    /// class: there the probe always reads, as the keychain does.
    func isProtectedDataAvailable() -> Bool {
        guard
            let directory = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
                .appendingPathComponent("SignInClient", isDirectory: true)
        else { return true }
        let probe = directory.appendingPathComponent(".protected-data-probe")
        if (try? Data(contentsOf: probe)) != nil { return true }
        if FileManager.default.fileExists(atPath: probe.path) { return false }  // there, unreadable: locked
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return FileManager.default.createFile(
            atPath: probe.path, contents: Data([1]),
            attributes: [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication])
    }

    private func attributes(_ item: KeychainItem) -> [String: Any] {
        var query: [String: Any] = [
            key(kSecClass): kSecClassGenericPassword, key(kSecAttrService): item.service,
            key(kSecAttrAccount): item.account, key(kSecUseDataProtectionKeychain): item.useDataProtectionKeychain,
        ]
        if let group = item.accessGroup { query[key(kSecAttrAccessGroup)] = group }
        return query
    }

    private func values(_ data: Data, _ accessibility: KeychainAccessibility) -> [String: Any] {
        let accessible: CFString =
            switch accessibility {
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            }
        return [key(kSecValueData): data, key(kSecAttrAccessible): accessible]
    }
}

#if canImport(Security)
private func key(_ name: CFString) -> String { name as String }
private func cfDictionary(_ dictionary: [String: Any]) -> CFDictionary { dictionary as CFDictionary }
#else
// Linux: never linked, never run (no Security library); only the types are checked here.
private func key(_ name: CFString) -> String { fatalError("typecheck only") }
private func cfDictionary(_ dictionary: [String: Any]) -> CFDictionary { fatalError("typecheck only") }
#endif
#endif
