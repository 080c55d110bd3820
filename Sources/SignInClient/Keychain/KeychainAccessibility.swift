/// `kSecAttrAccessible`: when the item can be read, and whether it may leave the device.
package enum KeychainAccessibility: Sendable, Equatable {
    /// What the store writes: readable after the first unlock (a background refresh while the
    /// phone is locked can store the rotated token), and never restored onto another device from a
    /// backup (where a replayed, rotated-out token would revoke the session).
    case afterFirstUnlockThisDeviceOnly
    /// What versions before issue 24 wrote; their items are moved over at the next write.
    case afterFirstUnlock
}
