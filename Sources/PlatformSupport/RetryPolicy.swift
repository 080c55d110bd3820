/// Bounded retries with exponential backoff and full jitter (AWS Architecture Blog, "Exponential
/// Backoff and Jitter"): attempt n waits a uniform random time in [0, min(cap, base·2ⁿ)].
package struct RetryPolicy: Sendable {
    package var maxAttempts: Int
    var baseDelayMilliseconds: Int
    var maxDelayMilliseconds: Int

    package init(maxAttempts: Int = 3, baseDelayMilliseconds: Int = 50, maxDelayMilliseconds: Int = 1_000) {
        self.maxAttempts = maxAttempts
        self.baseDelayMilliseconds = baseDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
    }

    /// The jittered delay before retry number `retry` (1 for the first retry).
    package func delay(beforeRetry retry: Int) -> Int {
        let exp = min(retry - 1, 20)
        let ceiling = min(maxDelayMilliseconds, baseDelayMilliseconds << exp)
        guard ceiling > 0 else { return 0 }
        return Int(SecureRandom.uniform(UInt64(ceiling) + 1))
    }
}

/// The time an operation may still use: the invocation's deadline less a safety margin for
/// writing the answer. Requests take their timeouts from it; retries stop when it runs out.
package struct Deadline: Sendable {
    /// Wall-clock milliseconds since the epoch (Lambda's `Lambda-Runtime-Deadline-Ms`).
    let epochMilliseconds: Int64

    package init(epochMilliseconds: Int64) { self.epochMilliseconds = epochMilliseconds }

    package static func after(milliseconds: Int64) -> Deadline {
        Deadline(epochMilliseconds: Clock.nowMilliseconds() + milliseconds)
    }
    package static var none: Deadline { Deadline(epochMilliseconds: Int64.max / 2) }

    package var remainingMilliseconds: Int64 { epochMilliseconds - Clock.nowMilliseconds() }

    /// A deadline `milliseconds` before this one: a step's budget that keeps time back for what
    /// follows it (the purge before the answer).
    package func earlier(by milliseconds: Int64) -> Deadline {
        Deadline(epochMilliseconds: epochMilliseconds - milliseconds)
    }

    /// A per-request timeout: the remaining time, capped, never below 1 ms (0 would mean "none").
    package func requestTimeout(cap: Int) -> Int { max(1, Int(min(Int64(cap), remainingMilliseconds))) }
}
