import PlatformSupport

/// How fast the app-transfer runs ask Apple (contract v4: "within Apple's rate limits"). Apple
/// publishes no limit for `/auth/token` or `/auth/usermigrationinfo` (docs/decisions/operator.md,
/// "App transfer: pace"), so the pace is the operator's (`--rate`, requests a second) and adapts:
/// a 429 halves it (down to `minimumRate`), each batch answered without one raises it by a tenth
/// again, up to the operator's. Requests of one batch go out together; the next batch waits until
/// the previous one's share of the rate has passed.
package struct AppleMigrationPacer: Sendable {
    package let maximumRate: Double
    package static let minimumRate = 0.5
    package private(set) var rate: Double
    /// When the next batch may start (epoch milliseconds).
    private var nextAtMs: Int64 = 0

    package init(requestsPerSecond: Double) {
        maximumRate = max(Self.minimumRate, requestsPerSecond)
        rate = maximumRate
    }

    /// How long to wait before sending `count` requests at `nowMs`; books their share of the rate.
    package mutating func wait(for count: Int, nowMs: Int64) -> Int64 {
        let start = max(nowMs, nextAtMs)
        nextAtMs = start + Int64((Double(count) * 1000 / rate).rounded(.up))
        return start - nowMs
    }

    /// Apple answered 429: half the pace, and nothing more before `retryAfterMs` has passed.
    package mutating func throttled(nowMs: Int64, retryAfterMs: Int64) {
        rate = max(Self.minimumRate, rate / 2)
        nextAtMs = max(nextAtMs, nowMs + retryAfterMs)
    }

    /// A batch went through without a 429: back toward the operator's pace.
    package mutating func clean() { rate = min(maximumRate, rate * 1.1) }
}
