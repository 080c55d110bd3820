import PlatformSupport

/// Time, randomness and waiting, injected so that the deterministic simulation can run many
/// operations against one virtual clock and replay a run exactly from its seed. `live` is the
/// process's own: the wall clock, the kernel CSPRNG, a real sleep.
package struct AccountEnvironment: Sendable {
    /// Milliseconds since the epoch.
    package var now: @Sendable () -> Int64
    /// Cryptographically secure bytes in production (tokens, UUIDs, link ids).
    package var randomBytes: @Sendable (Int) -> [UInt8]
    /// Waits this many milliseconds (after a lost conditional write, so racing writers spread out).
    package var pause: @Sendable (Int) -> Void

    package init(
        now: @escaping @Sendable () -> Int64, randomBytes: @escaping @Sendable (Int) -> [UInt8],
        pause: @escaping @Sendable (Int) -> Void
    ) {
        self.now = now
        self.randomBytes = randomBytes
        self.pause = pause
    }

    package static let live = AccountEnvironment(
        now: { Clock.nowMilliseconds() }, randomBytes: { SecureRandom.bytes($0) },
        pause: { Clock.sleep(milliseconds: $0) })

    /// A lowercase RFC 4122 version-4 UUID.
    package func uuid() -> String {
        var b = randomBytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        return UUIDText.format(b)
    }

    /// 128 random bits as 32 lowercase hex characters (session ids, link ids).
    package func hexID() -> String { Hex.encode(randomBytes(16)) }

    /// Uniform in 0..<upperBound (small bounds only: pauses).
    package func uniform(_ upperBound: Int) -> Int {
        let b = randomBytes(2)
        return (Int(b[0]) << 8 | Int(b[1])) % max(1, upperBound)
    }
}
