import Foundation

@testable import SignInClient

/// One device's keychain, shared by the processes on it, behaving as Apple's SecItem.h documents
/// (apple-oss-distributions/Security, keychain/headers/SecItem.h):
/// - a generic password's primary key is service, account and access group (with which keychain:
///   on macOS the data-protection keychain and the login keychain are separate stores);
/// - `kSecAttrAccessGroup` on a query limits it to that group, of which the caller must be a
///   member; without it a query searches every group the caller belongs to; an add without it
///   goes to the caller's default group, the first of its keychain-access-groups;
/// - SecItemAdd of an item that exists is `errSecDuplicateItem`; SecItemUpdate/Delete of none is
///   `errSecItemNotFound`; SecItemDelete removes every match;
/// - before the first unlock after a restart, `AfterFirstUnlock` items cannot be read or written:
///   `errSecInteractionNotAllowed` (here: every call, as for a store holding only such items);
///   an app prewarmed then (iOS 15+ launches apps before the user opens them) reads
///   `errSecItemNotFound` for an item that is there (luka-ios#134, firebase-ios-sdk#16505), and
///   protected data is unavailable (files of class `completeUntilFirstUserAuthentication` cannot
///   be opened) until the first unlock;
/// - a group the caller is not entitled to, or the data-protection keychain for a caller with no
///   keychain entitlement at all (an unsigned macOS tool), is `errSecMissingEntitlement`.
final class FakeKeychain: @unchecked Sendable {
    struct Item: Equatable {
        var service, account, group: String
        var dataProtection: Bool
        var data: Data
        var accessibility: KeychainAccessibility
    }

    private let lock = NSLock()
    private var items: [Item] = []
    private var isLocked = false
    private var prewarmed = false
    /// What SecItemCopyMatching hands back instead of the data (another result type), if set.
    var resultOverride: (any Sendable)?

    var all: [Item] { lock.withLock { items } }
    func lockBeforeFirstUnlock(prewarmed: Bool = false) {
        lock.withLock {
            isLocked = true
            self.prewarmed = prewarmed
        }
    }
    func unlock() { lock.withLock { isLocked = false } }
    var protectedDataAvailable: Bool { lock.withLock { !isLocked } }
    func insert(_ item: Item) { lock.withLock { items.append(item) } }

    /// One process on the device: its keychain-access-groups (the first is its default group).
    func process(groups: [String], entitled: Bool = true) -> Process {
        Process(keychain: self, groups: groups, entitled: entitled)
    }

    struct Process: KeychainBackend {
        let keychain: FakeKeychain
        let groups: [String]
        let entitled: Bool
        /// Runs just before an add: another process's add landing between our update and add.
        var beforeAdd: (@Sendable () -> Void)?

        func isProtectedDataAvailable() -> Bool { keychain.protectedDataAvailable }

        func copyData(_ item: KeychainItem) -> KeychainRead {
            if keychain.readsAsPrewarmed { return KeychainRead(status: KeychainStatus.itemNotFound, result: nil) }
            let found = keychain.run(self, item) { items, matches in
                guard let first = matches.first else { return (KeychainStatus.itemNotFound, nil) }
                return (KeychainStatus.success, keychain.resultOverride ?? items[first].data)
            }
            return KeychainRead(status: found.0, result: found.1)
        }

        func add(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
            beforeAdd?()
            return keychain.run(self, item) { items, _ in
                let group = item.useDataProtectionKeychain ? item.accessGroup ?? groups[0] : ""
                let exists = items.contains {
                    $0.service == item.service && $0.account == item.account && $0.group == group
                        && $0.dataProtection == item.useDataProtectionKeychain
                }
                if exists { return (KeychainStatus.duplicateItem, nil) }
                items.append(
                    Item(
                        service: item.service, account: item.account, group: group,
                        dataProtection: item.useDataProtectionKeychain, data: data, accessibility: accessibility))
                return (KeychainStatus.success, nil)
            }.0
        }

        func update(_ item: KeychainItem, data: Data, accessibility: KeychainAccessibility) -> Int32 {
            keychain.run(self, item) { items, matches in
                for index in matches {
                    items[index].data = data
                    items[index].accessibility = accessibility
                }
                return (matches.isEmpty ? KeychainStatus.itemNotFound : KeychainStatus.success, nil)
            }.0
        }

        func delete(_ item: KeychainItem) -> Int32 {
            keychain.run(self, item) { items, matches in
                for index in matches.reversed() { items.remove(at: index) }
                return (matches.isEmpty ? KeychainStatus.itemNotFound : KeychainStatus.success, nil)
            }.0
        }
    }

    /// A prewarmed launch before the first unlock: a read finds nothing, whatever is stored.
    var readsAsPrewarmed: Bool { lock.withLock { isLocked && prewarmed } }

    /// The checks every SecItem call makes, then `body` over the items the query matches.
    private func run(
        _ process: Process, _ query: KeychainItem, _ body: (inout [Item], [Int]) -> (Int32, Any?)
    ) -> (Int32, Any?) {
        lock.withLock {
            if isLocked { return (KeychainStatus.interactionNotAllowed, nil) }
            if query.useDataProtectionKeychain && !process.entitled { return (KeychainStatus.missingEntitlement, nil) }
            if query.useDataProtectionKeychain, let group = query.accessGroup, !process.groups.contains(group) {
                return (KeychainStatus.missingEntitlement, nil)
            }
            // The login keychain (macOS, data protection off) has no access groups.
            let visible = query.useDataProtectionKeychain ? query.accessGroup.map { [$0] } ?? process.groups : [""]
            let matches = items.indices.filter {
                items[$0].service == query.service && items[$0].account == query.account
                    && visible.contains(items[$0].group) && items[$0].dataProtection == query.useDataProtectionKeychain
            }
            return body(&items, matches)
        }
    }
}
