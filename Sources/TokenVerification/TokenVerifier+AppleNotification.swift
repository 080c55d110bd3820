import PlatformSupport

extension TokenVerifier {
    /// Verifies a Sign in with Apple server-to-server notification (the `payload` Apple posts):
    /// the same JWS rules and keys as Apple's ID tokens, then `AppleNotificationRules`.
    package func verifyAppleNotification(
        _ payload: String, deadline: Deadline
    ) throws(TokenError) -> AppleAccountNotification {
        let claims = try verifiedClaims(payload, provider: .apple, deadline: deadline)
        return try AppleNotificationRules(
            issuers: configuration.issuers(for: .apple), audiences: configuration.settings(for: .apple).audiences,
            leeway: configuration.leewaySeconds
        )
        .validate(claims, now: now())
    }
}
