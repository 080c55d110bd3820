import Foundation
import Testing

@testable import SignInClient

/// The Keychain store's logic over a keychain that behaves as SecItem.h documents (FakeKeychain):
/// defects 2, 7 and 8 of issue 24.
@Suite struct KeychainSessionStoreTests {
    static let shared = "TEAM.com.example.photos.shared"
    let keychain = FakeKeychain()
    var app: FakeKeychain.Process { keychain.process(groups: ["TEAM.com.example.photos", Self.shared]) }
    var appex: FakeKeychain.Process { keychain.process(groups: ["TEAM.com.example.photos.share", Self.shared]) }

    /// The store an app (`bundle` ending in .app) or an extension (.appex) makes by default.
    func store(_ process: FakeKeychain.Process, bundle: String, group: String? = shared) -> KeychainSessionStore {
        let url = URL(fileURLWithPath: "/Applications/\(bundle)")
        let legacy = KeychainSessionStore.legacyServices(
            bundleIdentifier: url.deletingPathExtension().lastPathComponent, bundlePathExtension: url.pathExtension)
        return KeychainSessionStore(accessGroup: group, legacyServices: legacy, backend: process)
    }

    @Test func theAppAndItsExtensionFindOneItemWithTheDefaults() throws {
        try store(app, bundle: "com.example.photos.app").save(Data("session".utf8))
        #expect(try store(appex, bundle: "com.example.photos.share.appex").load() == Data("session".utf8))
        // What the bundle-id default did: each process looked under its own service and missed the item.
        let byBundleID = KeychainSessionStore(
            service: "com.example.photos.share", accessGroup: Self.shared, backend: appex)
        #expect(try byBundleID.load() == nil)
    }

    @Test func anEarlierVersionsItemMovesToTheSharedServiceAndCannotComeBack() throws {
        keychain.insert(
            .init(
                service: "com.example.photos", account: "session", group: "TEAM.com.example.photos",
                dataProtection: true, data: Data("old".utf8), accessibility: .afterFirstUnlock))
        let appStore = store(app, bundle: "com.example.photos.app", group: nil)
        #expect(try appStore.load() == Data("old".utf8))
        #expect(keychain.all.map(\.service) == [KeychainSessionStore.defaultService])
        #expect(keychain.all.map(\.accessibility) == [.afterFirstUnlockThisDeviceOnly])
        // A crash left both; signing out removes both, so the old one is never read again.
        keychain.insert(
            .init(
                service: "com.example.photos", account: "session", group: "TEAM.com.example.photos",
                dataProtection: true, data: Data("old".utf8), accessibility: .afterFirstUnlock))
        try appStore.remove()
        #expect(try appStore.load() == nil)
        #expect(keychain.all.isEmpty)
    }

    @Test func itemsStayOnThisDeviceAndAreReadableAfterFirstUnlock() throws {
        keychain.insert(
            .init(
                service: KeychainSessionStore.defaultService, account: "session", group: Self.shared,
                dataProtection: true, data: Data("old".utf8), accessibility: .afterFirstUnlock))
        try store(app, bundle: "com.example.photos.app").save(Data("new".utf8))
        try store(app, bundle: "com.example.photos.app", group: "TEAM.com.example.photos").save(Data("other".utf8))
        #expect(
            keychain.all.map(\.accessibility) == [.afterFirstUnlockThisDeviceOnly, .afterFirstUnlockThisDeviceOnly])
    }

    @Test func beforeTheFirstUnlockEveryCallFailsAndNothingCountsAsSignedOut() async throws {
        let appStore = store(app, bundle: "com.example.photos.app")
        try appStore.save(try Answers.sessionData())
        keychain.lockBeforeFirstUnlock()
        #expect(throws: SessionStoreError.self) { try appStore.load() }
        #expect(throws: SessionStoreError.self) { try appStore.save(Data()) }
        #expect(throws: SessionStoreError.self) { try appStore.remove() }
        let session = SignInSession(configuration: SignInConfiguration(transport: backend(), store: appStore))
        var states = await session.authStates().makeAsyncIterator()
        #expect(await states.next() == .unknown)
        keychain.unlock()
        #expect(await session.currentUser != nil)
    }

    /// Issue 32: a launch prewarmed before the first unlock reads `errSecItemNotFound` for the
    /// stored session. That is "not readable now": `.unknown`, nothing cleared, read again later.
    @Test func aPrewarmedLaunchBeforeTheFirstUnlockIsUnknownNotSignedOut() async throws {
        let appStore = store(app, bundle: "com.example.photos.app")
        try appStore.save(try Answers.sessionData())
        keychain.lockBeforeFirstUnlock(prewarmed: true)
        #expect(throws: SessionStoreError.self) { try appStore.load() }
        let session = SignInSession(configuration: SignInConfiguration(transport: backend(), store: appStore))
        var states = await session.authStates().makeAsyncIterator()
        #expect(await states.next() == .unknown)
        await #expect(throws: SignInError.self) { _ = try await session.credentials() }
        #expect(keychain.all.count == 1)  // nothing cleared
        keychain.unlock()
        #expect(await session.currentUser != nil)  // read again: the session was there all along
        guard case .signedIn = await states.next() else {
            Issue.record("no signedIn state after the first unlock")
            return
        }
    }

    @Test func anAddLandingBetweenOurUpdateAndOurAddIsUpdated() throws {
        var racing = app
        let other = appex
        racing.beforeAdd = {
            _ = other.add(Self.item, data: Data("theirs".utf8), accessibility: .afterFirstUnlockThisDeviceOnly)
        }
        let appStore = KeychainSessionStore(accessGroup: Self.shared, backend: racing)
        try appStore.save(Data("ours".utf8))
        #expect(try appStore.load() == Data("ours".utf8))
        #expect(keychain.all.count == 1)
    }

    @Test func aReadWhoseResultIsNotDataIsAnErrorNotNothingStored() throws {
        let appStore = store(app, bundle: "com.example.photos.app")
        try appStore.save(Data("session".utf8))
        keychain.resultOverride = ["svce": "SignInClient"]
        #expect(throws: SessionStoreError("keychain read returned no data")) { try appStore.load() }
    }

    @Test func anUnsignedMacToolUsesTheLoginKeychain() throws {
        let tool = keychain.process(groups: [], entitled: false)
        let toolStore = KeychainSessionStore(backend: tool)
        try toolStore.save(Data("session".utf8))
        #expect(try toolStore.load() == Data("session".utf8))
        #expect(keychain.all.map(\.dataProtection) == [false])
        try toolStore.remove()
        #expect(keychain.all.isEmpty)
        // With an access group (sharing needs the entitlement) or the fallback off: the error, named.
        for store in [
            KeychainSessionStore(accessGroup: Self.shared, backend: tool),
            KeychainSessionStore(allowsLoginKeychainFallback: false, backend: tool),
        ] {
            #expect(throws: KeychainStatus.error(KeychainStatus.missingEntitlement, "write")) {
                try store.save(Data())
            }
        }
    }

    static let item = KeychainItem(
        service: KeychainSessionStore.defaultService, account: "session", accessGroup: shared,
        useDataProtectionKeychain: true)
}
