import Foundation

/// How a `SignInSession` talks, stores and refreshes. The defaults fit a main app.
public struct SignInConfiguration: Sendable {
    /// Who may refresh: the main app (`.refreshes`) or nobody in this process (`.readOnly`: app
    /// extensions and widgets read the shared session and never present its refresh token, so two
    /// processes never rotate one token at once; see docs/client.md).
    public enum RefreshPolicy: Sendable { case refreshes, readOnly }

    public var transport: any SignInTransport
    public var store: any SessionStore
    public var refreshPolicy: RefreshPolicy
    /// `credentials()` refreshes when the cached credentials expire within this (default 5 minutes:
    /// long enough for the longest single S3 request or multipart part).
    public var credentialsMargin: TimeInterval
    /// A refresh whose answer was lost is retried with the same token only while this much time has
    /// passed since its first attempt: well inside the server's `REFRESH_REUSE_GRACE_SECONDS` (30).
    public var refreshRetryWindow: TimeInterval
    /// Pauses between those retries.
    public var retryDelays: [TimeInterval]
    /// Credentials that arrived less than this ago are never refreshed again by the margin rule
    /// (a margin longer than the credentials' life must not turn into a refresh loop).
    public var minimumRefreshInterval: TimeInterval
    /// The label the session list shows for this sign-in (at most 64 characters).
    public var device: String?
    /// The wall clock (tests move it).
    public var clock: @Sendable () -> Date

    public init(
        transport: any SignInTransport, store: any SessionStore, refreshPolicy: RefreshPolicy = .refreshes,
        credentialsMargin: TimeInterval = 300, refreshRetryWindow: TimeInterval = 20,
        retryDelays: [TimeInterval] = [0.5, 1, 2, 4], minimumRefreshInterval: TimeInterval = 10,
        device: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.store = store
        self.refreshPolicy = refreshPolicy
        self.credentialsMargin = credentialsMargin
        self.refreshRetryWindow = refreshRetryWindow
        self.retryDelays = retryDelays
        self.minimumRefreshInterval = minimumRefreshInterval
        self.device = device
        self.clock = clock
    }
}
