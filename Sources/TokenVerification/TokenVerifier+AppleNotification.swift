import PlatformSupport

extension TokenVerifier {
    /// Verifies a Sign in with Apple server-to-server notification (the `payload` Apple posts):
    /// the same JWS rules and keys as Apple's ID tokens, then `AppleNotificationRules`.
    public func verifyAppleNotification(
        _ payload: String, deadline: Deadline
    ) throws(TokenError) -> AppleAccountNotification {
        let settings = configuration.settings(for: .apple)
        guard settings.isEnabled else {
            throw TokenError(kind: .unsupportedProvider, message: "Apple sign-in is not enabled for this deployment")
        }
        let jws = try CompactJWS(payload)
        let key = try key(jws.keyID, provider: .apple, deadline: deadline)
        let verified = jws.signingInput.withUnsafeBytes { key.verifyPKCS1SHA256(signature: jws.signature, message: $0) }
        guard verified else { throw .invalid("signature does not verify with Apple's key") }
        return try AppleNotificationRules(
            issuers: configuration.issuers(for: .apple), audiences: settings.audiences,
            leeway: configuration.leewaySeconds
        )
        .validate(try jws.claims(), now: now())
    }
}
