/// SplitMix64: a small, fast, seedable generator. Everything random in a simulation run, or in a
/// property test's inputs, comes from one of these, so a seed replays the run exactly.
package struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n.
    package mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    package mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    package mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            var w = next()
            withUnsafeBytes(of: &w) { out.append(contentsOf: $0) }
        }
        return Array(out.prefix(count))
    }
}
