import CurlHTTP
import LambdaRuntime
import PlatformSupport

/// The three functions, each its own executable, and the actions each serves. The executables
/// call `AuthFunction.<name>.start(context)` inside `Lambda.run`; this is the module's whole
/// public surface.
package enum AuthFunction: Sendable {
    case signin, refresh, link

    /// The function's name in metrics and logs.
    var name: String { "auth-\(self)" }

    /// The actions, chosen by the request's `action` field; the first is the default. A
    /// function with one action does not read the field at all.
    var actions: [any Action.Type] {
        switch self {
        case .signin: return [SignInAction.self]
        case .refresh:
            return [
                RefreshAction.self, SignOutAction.self, ListSessionsAction.self, SignOutOthersAction.self,
                SignOutSessionAction.self,
            ]
        case .link: return [LinkAction.self, UnlinkAction.self, DeleteAction.self, ClaimPurchaseAction.self]
        }
    }

    /// The events, chosen by the invocation's shape before any `action` field is read: Apple's
    /// notifications arrive at auth-link's Function URL, the schedule invokes it directly.
    var events: [any Action.Type] {
        switch self {
        case .signin, .refresh: return []
        case .link:
            return [
                AppleAccountEventAction.self, AppStoreNotificationAction.self, GoogleSecurityEventAction.self,
                ScheduledRunAction.self,
            ]
        }
    }

    /// Whether this function's Function URL serves Sign in with Apple's return URL (`AppleWebReturn`).
    var servesAppleWebReturn: Bool { self == .signin }

    /// The invocation's action, with its fields read and checked.
    func action(for invocation: Invocation) throws(ServiceError) -> any Action {
        if let event = events.first(where: { $0.matches(invocation) }) { return try event.init(invocation.request) }
        guard !invocation.isSecurityEvent else {
            throw ServiceError(.invalidRequest, "This function does not take security event tokens.")
        }
        return try action(for: invocation.request)
    }

    /// An app's call: chosen by the request's `action` field.
    func action(for request: Request) throws(ServiceError) -> any Action {
        let actions = self.actions
        guard actions.count > 1 else { return try actions[0].init(request) }
        let name = try request.choice("action", actions.map { $0.name }, default: actions[0].name)
        return try actions.first { $0.name == name }!.init(request)
    }

    /// Start-up: reads and validates the configuration (a `ConfigurationError` becomes the init
    /// error), opens the HTTP client, and for the functions that verify ID tokens fetches both
    /// providers' keys now, concurrently, so the first sign-in does not wait for them (a failed
    /// fetch is retried on first use).
    package func start(_ context: InitContext) throws -> some LambdaHandler {
        let configuration = try ServiceConfiguration.from(environment: Environment.nonEmpty)
        let http: HTTPClient
        do throws(HTTPError) { http = try HTTPClient() } catch {
            throw ConfigurationError(variable: "libcurl", message: "is not usable: \(error.message)")
        }
        let dependencies = try ServiceDependencies(
            configuration: configuration, http: http, revokesAppleTokens: self == .link)
        if self != .refresh { dependencies.verifier.prefetchKeys(deadline: .after(milliseconds: 3_000)) }
        context.logger.info(
            "init",
            [
                ("function", .string(context.functionName)), ("region", .string(configuration.aws.region)),
                ("libcurl", .string(CurlLibrary.version ?? "?")),
            ])
        return ServiceHandler(function: self, dependencies: dependencies)
    }
}

/// A configuration the function cannot start with is reported to `/runtime/init/error`.
extension ConfigurationError: LambdaFunctionError {
    package var errorType: String { "Runtime.InvalidConfiguration" }
    package var errorMessage: String { description }
}
