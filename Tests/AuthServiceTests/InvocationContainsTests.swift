import TestSupport
import Testing

@testable import AuthService

/// `Invocation.contains` (the search for Apple's return path in every sign-in event) against the
/// plain search it replaced, over seeded random bytes.
@Suite struct InvocationContainsTests {
    func plainContains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    @Test func agreesWithThePlainSearch() {
        var random = SeededRandom(seed: 303)
        for _ in 0..<5_000 {
            let haystack = (0..<random.below(30)).map { _ in UInt8(ascii: "a") + UInt8(random.below(3)) }
            let needle = (0..<random.below(5)).map { _ in UInt8(ascii: "a") + UInt8(random.below(3)) }
            #expect(Invocation.contains(haystack, needle) == plainContains(haystack, needle), "\(haystack) \(needle)")
        }
    }
}
