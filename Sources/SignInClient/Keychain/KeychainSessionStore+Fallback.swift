extension KeychainSessionStore {
    /// Runs `call` on `item`. On macOS the data-protection keychain answers an unsigned tool (no
    /// keychain entitlement) `errSecMissingEntitlement` on every call, forever: then, unless an
    /// access group is set or the fallback is off, the same call goes to the login keychain (an
    /// item there may ask for the login keychain's password when the binary changes). On iOS,
    /// which ignores `kSecUseDataProtectionKeychain`, the second call fails the same way and its
    /// error is reported.
    func withFallback<Result>(
        _ item: KeychainItem, _ call: (KeychainItem) -> Result, status: (Result) -> Int32
    ) -> Result {
        let first = call(item)
        guard status(first) == KeychainStatus.missingEntitlement, item.useDataProtectionKeychain,
            item.accessGroup == nil, allowsLoginKeychainFallback
        else { return first }
        var loginKeychain = item
        loginKeychain.useDataProtectionKeychain = false
        return call(loginKeychain)
    }

    func withFallback(_ item: KeychainItem, _ call: (KeychainItem) -> Int32) -> Int32 {
        withFallback(item, call, status: { $0 })
    }
}
