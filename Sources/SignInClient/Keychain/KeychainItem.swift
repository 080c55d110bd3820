/// The one generic-password item a query names (`kSecClassGenericPassword`): its primary key
/// (service, account, access group) and which keychain holds it on macOS.
package struct KeychainItem: Sendable, Equatable {
    package var service: String
    package var account: String
    /// nil: on a query, every group the app belongs to; on an add, the app's default group.
    package var accessGroup: String?
    /// `kSecUseDataProtectionKeychain` (macOS; iOS has only that keychain and ignores it).
    package var useDataProtectionKeychain: Bool

    package init(service: String, account: String, accessGroup: String?, useDataProtectionKeychain: Bool) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.useDataProtectionKeychain = useDataProtectionKeychain
    }
}
