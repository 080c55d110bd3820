import Foundation

/// The four SecItem calls over one generic-password item, each returning its OSStatus: all that
/// `KeychainSessionStore` needs from Apple's Security framework. `SecurityKeychainBackend` is the
/// real one (every Security call and CF bridging lives there); the store's logic runs, and is
/// tested on Linux, against any conformer (Tests/SignInClientTests/FakeKeychain.swift behaves as
/// SecItem.h documents).
package protocol KeychainBackend: Sendable {
    /// SecItemCopyMatching for the item's data (`kSecReturnData`, `kSecMatchLimitOne`).
    func copyData(_ item: KeychainItem) -> KeychainRead
    /// SecItemAdd of the item with `data`, readable as `accessibility` says.
    func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32
    /// SecItemUpdate of the items the query matches: their data and accessibility.
    func update(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32
    /// SecItemDelete of the items the query matches.
    func delete(_ item: KeychainItem) -> Int32
    /// Whether the device's protected data can be read now (it has been unlocked since it started).
    /// An app prewarmed before the first unlock reads `errSecItemNotFound` for an item that is there
    /// (luka-ios#134, firebase-ios-sdk#16505): "not found" counts only when this is true.
    func isProtectedDataAvailable() -> Bool
}

/// What SecItemCopyMatching returned: its status and its result, as it came (the store checks
/// that it is data: a success with anything else is an error, not "nothing stored").
package struct KeychainRead {
    package var status: Int32
    package var result: Any?

    package init(status: Int32, result: Any?) {
        self.status = status
        self.result = result
    }
}
