import AuthService

extension AuthFunction {
    /// auth-link: the account (link, unlink, delete, claim), and the events on its Function URL
    /// (Apple's account notifications, App Store Server Notifications, Google's security events)
    /// and from its schedule (pending deletions).
    package static let link = AuthFunction(
        name: "auth-link", actions: [LinkAction.self, UnlinkAction.self, DeleteAction.self, ClaimPurchaseAction.self],
        events: [
            AppleAccountEventAction.self, AppStoreNotificationAction.self, GoogleSecurityEventAction.self,
            ScheduledRunAction.self,
        ],
        revokesAppleTokens: true)
}
