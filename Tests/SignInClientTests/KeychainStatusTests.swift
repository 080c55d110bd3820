import Testing

@testable import SignInClient

#if canImport(Security)
import Security
#elseif canImport(SecItemMirror)
import SecItemMirror  // Linux: the values copied from base/SecBase.h (the enum's values need no linking)
#endif

/// The logic's status values are the ones Apple's header defines.
@Suite struct KeychainStatusTests {
    #if canImport(Security) || canImport(SecItemMirror)
    @Test func theStatusesAreSecBaseHs() {
        #expect(KeychainStatus.success == errSecSuccess)
        #expect(KeychainStatus.duplicateItem == errSecDuplicateItem)
        #expect(KeychainStatus.itemNotFound == errSecItemNotFound)
        #expect(KeychainStatus.interactionNotAllowed == errSecInteractionNotAllowed)
        #expect(KeychainStatus.missingEntitlement == errSecMissingEntitlement)
    }
    #endif
}
