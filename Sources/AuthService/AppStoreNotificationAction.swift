import AccountDomain
import PlatformSupport

/// App Store Server Notifications V2: `{"signedPayload": "<JWS>"}` posted by Apple to auth-link's
/// Function URL (docs/API.md, "Notifications"). Answers 200 when processed, a duplicate, or about
/// an unknown purchase; 400 when verification fails (Apple does not retry); 503 on a transient
/// failure (Apple retries).
struct AppStoreNotificationAction: Action {
    static let name = "appStoreNotification"

    let signedPayload: String

    static func matches(_ invocation: Invocation) -> Bool {
        invocation.shape == .functionURL && invocation.request.object["signedPayload"]?.stringValue != nil
    }

    init(_ request: Request) throws(ServiceError) {
        signedPayload = try request.requiredString("signedPayload", maxBytes: Invocation.maxEventBytes)
    }

    func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        // Purchases are off in this deployment until APPSTORE_BUNDLE_ID is set.
        throw ServiceError(.invalidRequest, "App Store notifications are not enabled in this deployment.")
    }

    func httpStatus(for error: ServiceError) -> Int { error.code == .upstreamUnavailable ? 503 : 400 }
}
