import PlatformSupport

/// How an API client with a per-request signature (Sign in with Apple's token endpoints, the App
/// Store Server API) sends: one request at a time through `HTTPClient.sendAll(_:retry:…)`, built
/// afresh for every attempt (a fresh `iat`) with that attempt's timeout, the time left before the
/// deadline but at most `requestTimeoutCapMilliseconds`; no attempt starts with less than
/// `minimumAttemptMilliseconds` left. Single-threaded, like the `HTTPClient` it holds.
package struct RetryingSender {
    package let http: HTTPClient
    package var retry: RetryPolicy
    /// Upper bound for one attempt; the deadline usually binds first.
    package var requestTimeoutCapMilliseconds: Int
    /// No attempt starts with less than this left before the deadline.
    package let minimumAttemptMilliseconds: Int64 = 100

    package init(http: HTTPClient, retry: RetryPolicy, requestTimeoutCapMilliseconds: Int) {
        self.http = http
        self.retry = retry
        self.requestTimeoutCapMilliseconds = requestTimeoutCapMilliseconds
    }

    /// `request` builds the attempt's request for its timeout, `interpret` judges each answer, and
    /// `giveUp` is the outcome when the attempts or the deadline run out.
    package func send<Outcome, Failure>(
        deadline: Deadline, request: (_ timeoutMilliseconds: Int) -> HTTPRequest,
        interpret: (_ answer: Result<HTTPResponse, HTTPError>) -> RetryVerdict<Outcome, Failure>, giveUp: Outcome
    ) -> Outcome {
        http.sendAll(
            1, retry: retry, minimumAttemptMilliseconds: minimumAttemptMilliseconds, deadline: deadline,
            requests: { _, _ in [request(deadline.requestTimeout(cap: requestTimeoutCapMilliseconds))] },
            interpret: { _, answer, _ in interpret(answer) },
            giveUp: { _, _, _, _ in giveUp })[0]
    }
}
