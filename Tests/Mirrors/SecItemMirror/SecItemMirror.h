// Exactly the declarations of Apple's Security framework that
// Sources/SignInClient/Keychain/SecurityKeychainBackend.swift uses, copied verbatim from
// apple-oss-distributions/Security at Security-61901.0.87.0.1 (commit db15acbe):
//   keychain/headers/SecItem.h and base/SecBase.h (the line of each is given).
// For the Linux typecheck only (Tests/KeychainBackendTypecheck): nothing defines these symbols
// here, so nothing that uses them is ever linked or run on Linux.
#ifndef SECITEMMIRROR_H
#define SECITEMMIRROR_H

#include <CoreFoundation/CoreFoundation.h>

// Linux lacks Apple's <sys/cdefs.h> spelling of the nullability qualifier.
#ifndef __nullable
#define __nullable _Nullable
#endif

__BEGIN_DECLS

CF_ASSUME_NONNULL_BEGIN
CF_IMPLICIT_BRIDGING_ENABLED

// base/SecBase.h:324 (the CF_ENUM(OSStatus) of result codes; the five this code tells apart)
CF_ENUM(OSStatus)
{
    errSecSuccess                            = 0,       /* No error. */
    errSecMissingEntitlement                 = -34018,    /* A required entitlement isn't present. */
    errSecDuplicateItem                      = -25299,    /* The specified item already exists in the keychain. */
    errSecItemNotFound                       = -25300,    /* The specified item could not be found in the keychain. */
    errSecInteractionNotAllowed              = -25308,    /* User interaction is not allowed. */
};

// keychain/headers/SecItem.h:53
extern const CFStringRef kSecClass
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:70
extern const CFStringRef kSecClassGenericPassword
    API_AVAILABLE(macos(10.7), ios(2.0));
// keychain/headers/SecItem.h:448
extern const CFStringRef kSecAttrAccessible
    API_AVAILABLE(macos(10.9), ios(4.0));
// keychain/headers/SecItem.h:454
extern const CFStringRef kSecAttrAccessGroup
    API_AVAILABLE(macos(10.9), ios(3.0));
// keychain/headers/SecItem.h:478
extern const CFStringRef kSecAttrAccount
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:480
extern const CFStringRef kSecAttrService
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:607
extern const CFStringRef kSecAttrAccessibleAfterFirstUnlock
    API_AVAILABLE(macos(10.9), ios(4.0));
// keychain/headers/SecItem.h:615
extern const CFStringRef kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
    API_AVAILABLE(macos(10.9), ios(4.0));
// keychain/headers/SecItem.h:926
extern const CFStringRef kSecMatchLimit
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:928
extern const CFStringRef kSecMatchLimitOne
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:964
extern const CFStringRef kSecReturnData
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:991
extern const CFStringRef kSecValueData
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:1055
extern const CFStringRef kSecUseDataProtectionKeychain
    API_AVAILABLE(macos(10.15), ios(13.0));

// keychain/headers/SecItem.h:1178
OSStatus SecItemCopyMatching(CFDictionaryRef query, CFTypeRef * __nullable CF_RETURNS_RETAINED result)
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:1227
OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef * __nullable CF_RETURNS_RETAINED result)
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:1246
OSStatus SecItemUpdate(CFDictionaryRef query, CFDictionaryRef attributesToUpdate)
    API_AVAILABLE(macos(10.6), ios(2.0));
// keychain/headers/SecItem.h:1277
OSStatus SecItemDelete(CFDictionaryRef query)
    API_AVAILABLE(macos(10.6), ios(2.0));

CF_IMPLICIT_BRIDGING_DISABLED
CF_ASSUME_NONNULL_END

__END_DECLS

#endif
