import PlatformSupport

/// What one answer means to the retry loop: the caller's final outcome for that request, or a
/// transient failure worth another attempt while the budget and the deadline allow.
package enum RetryVerdict<Outcome, Failure> {
    case final(Outcome)
    case retry(Failure)
}

extension RetryVerdict where Failure: Error {
    /// An API client's verdict when no answer came (`RetryingSender`'s callers): another attempt
    /// when the failure may pass (`HTTPError.isRetryable`), else final; `unavailable` either way,
    /// but `malformed` when the answer was over the size bound.
    package static func transportFailure<Success>(
        _ error: HTTPError, unavailable: Failure, malformed: Failure
    ) -> Self where Outcome == Result<Success, Failure> {
        if error.isRetryable { return .retry(unavailable) }
        return .final(.failure(error.kind == .responseTooLarge ? malformed : unavailable))
    }
}

extension HTTPClient {
    /// The one bounded-retry loop for requests that go out together (S3 and STS calls, the JWKS
    /// fetches). Every round is one `sendAll` (overlapped on the wire); the requests whose answer
    /// `interpret` calls transient go again together, after one jittered backoff from `retry`, at
    /// most `retry.maxAttempts` rounds in all. No round starts with less than
    /// `minimumAttemptMilliseconds` left before `deadline`, counting the backoff, so the deadline
    /// bounds the total; per-attempt timeouts are the caller's, taken from the deadline when
    /// `requests` builds them.
    ///
    /// - Parameters:
    ///   - count: how many requests; outcomes come back in the same order.
    ///   - requests: the requests of one round, for the still-pending indices, built just before
    ///     they are sent (so a signer dates each attempt and the timeout reflects the time left).
    ///   - interpret: the verdict on request `index`'s answer in round `attempt` (1-based).
    ///   - giveUp: the outcome of a request still pending when the loop stops: its last transient
    ///     failure (nil when it was never sent), the attempts it got, and whether the deadline,
    ///     rather than the attempt budget, stopped it.
    package func sendAll<Outcome, Failure>(
        _ count: Int, retry: RetryPolicy, minimumAttemptMilliseconds: Int64, deadline: Deadline,
        requests: (_ pending: [Int], _ attempt: Int) -> [HTTPRequest],
        interpret: (_ index: Int, _ answer: Result<HTTPResponse, HTTPError>, _ attempt: Int) -> RetryVerdict<
            Outcome, Failure
        >,
        giveUp: (_ index: Int, _ lastFailure: Failure?, _ attempts: Int, _ deadlineReached: Bool) -> Outcome
    ) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: count)
        var lastFailure = [Failure?](repeating: nil, count: count)
        var pending = Array(0..<count)
        let maxAttempts = max(1, retry.maxAttempts)
        var attempt = 0
        func stop(deadlineReached: Bool) {
            for i in pending { outcomes[i] = giveUp(i, lastFailure[i], attempt, deadlineReached) }
        }
        while !pending.isEmpty {
            if deadline.remainingMilliseconds < minimumAttemptMilliseconds {
                stop(deadlineReached: true)
                break
            }
            attempt += 1
            if attempt > 1 { retryCount += pending.count }
            let answers = sendAll(requests(pending, attempt))
            var again: [Int] = []
            for (k, i) in pending.enumerated() {
                switch interpret(i, answers[k], attempt) {
                case .final(let outcome): outcomes[i] = outcome
                case .retry(let failure):
                    lastFailure[i] = failure
                    again.append(i)
                }
            }
            pending = again
            guard !pending.isEmpty else { break }
            if attempt >= maxAttempts {
                stop(deadlineReached: false)
                break
            }
            let delay = retry.delay(beforeRetry: attempt)
            if deadline.remainingMilliseconds - Int64(delay) < minimumAttemptMilliseconds {
                stop(deadlineReached: true)
                break
            }
            Clock.sleep(milliseconds: delay)
        }
        return outcomes.map { $0! }
    }
}
