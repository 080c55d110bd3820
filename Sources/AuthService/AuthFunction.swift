import CurlHTTP
import LambdaRuntime
import PlatformSupport

/// A function: its name, the actions an app's call chooses by `action` (the first is the default)
/// and the events chosen by the invocation's shape. Each function's module (`SignInFunction`,
/// `RefreshFunction`, `LinkFunction`) defines its value (`AuthFunction.signin`, …) with its own
/// actions, so an executable links only its own actions and the flows they run: auth-refresh
/// carries no purge, no link and no claim (docs/decisions/account-modules.md, "A function links
/// its own flows"). The executables call `AuthFunction.<name>.start(context)` inside `Lambda.run`.
package struct AuthFunction: Sendable {
    /// The function's name in metrics and logs.
    package let name: String
    /// The actions, chosen by the request's `action` field; the first is the default. A
    /// function with one action does not read the field at all.
    package let actions: [any Action.Type]
    /// The events, chosen by the invocation's shape before any `action` field is read (Apple's
    /// notifications arrive at auth-link's Function URL, the schedule invokes it directly).
    package let events: [any Action.Type]
    /// Whether this function's Function URL serves Sign in with Apple's return URL (`AppleWebReturn`).
    package let servesAppleWebReturn: Bool
    /// Whether this function deletes accounts, so revokes Sign in with Apple tokens (its key loaded
    /// at start-up).
    package let revokesAppleTokens: Bool
    /// Whether this function verifies ID tokens, so fetches both providers' keys at start-up.
    package let verifiesIDTokens: Bool

    package init(
        name: String, actions: [any Action.Type], events: [any Action.Type] = [], servesAppleWebReturn: Bool = false,
        revokesAppleTokens: Bool = false, verifiesIDTokens: Bool = true
    ) {
        self.name = name
        self.actions = actions
        self.events = events
        self.servesAppleWebReturn = servesAppleWebReturn
        self.revokesAppleTokens = revokesAppleTokens
        self.verifiesIDTokens = verifiesIDTokens
    }

    /// The invocation's action, with its fields read and checked.
    package func action(for invocation: Invocation) throws(ServiceError) -> any Action {
        if let event = events.first(where: { $0.matches(invocation) }) { return try event.init(invocation.request) }
        guard !invocation.isSecurityEvent else {
            throw ServiceError(.invalidRequest, "This function does not take security event tokens.")
        }
        return try action(for: invocation.request)
    }

    /// An app's call: chosen by the request's `action` field.
    package func action(for request: Request) throws(ServiceError) -> any Action {
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
            configuration: configuration, http: http, revokesAppleTokens: revokesAppleTokens)
        if verifiesIDTokens { dependencies.verifier.prefetchKeys(deadline: .after(milliseconds: 3_000)) }
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
