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
    /// Ignored since contract v5: a refresh whose answer was lost is retried with the same token
    /// whenever credentials are next needed, however much later (the server accepts it until its
    /// successor is presented), so no window ends a session any more. Kept so that apps that set
    /// it still build; it will be removed in the next major version.
    @available(*, deprecated, message: "ignored since contract v5: a lost answer is retried whenever next needed")
    public var refreshRetryWindow: TimeInterval {
        get { ignoredRetryWindow }
        set { ignoredRetryWindow = newValue }
    }
    var ignoredRetryWindow: TimeInterval = 20
    /// Pauses between the attempts of one refresh (a lost answer, a throttle, an outage); after the
    /// last, the refresh fails ("retry later") and the next call for credentials tries again.
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
        credentialsMargin: TimeInterval = 300, retryDelays: [TimeInterval] = [0.5, 1, 2, 4],
        minimumRefreshInterval: TimeInterval = 10, device: String? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.store = store
        self.refreshPolicy = refreshPolicy
        self.credentialsMargin = credentialsMargin
        self.retryDelays = retryDelays
        self.minimumRefreshInterval = minimumRefreshInterval
        self.device = device
        self.clock = clock
    }

    /// The v4 initializer: `refreshRetryWindow` is ignored (see the property).
    @available(*, deprecated, message: "drop refreshRetryWindow: ignored since contract v5")
    public init(
        transport: any SignInTransport, store: any SessionStore, refreshPolicy: RefreshPolicy = .refreshes,
        credentialsMargin: TimeInterval = 300, refreshRetryWindow: TimeInterval,
        retryDelays: [TimeInterval] = [0.5, 1, 2, 4], minimumRefreshInterval: TimeInterval = 10,
        device: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            transport: transport, store: store, refreshPolicy: refreshPolicy, credentialsMargin: credentialsMargin,
            retryDelays: retryDelays, minimumRefreshInterval: minimumRefreshInterval, device: device, clock: clock)
        ignoredRetryWindow = refreshRetryWindow
    }
}
