import PlatformSupport

extension TokenVerifier {
    /// Verifies a security event token Google's Cross-Account Protection posted: RS256 with a key
    /// of `GOOGLE_RISC_JWKS_URL` (its own cache), then `SecurityEventRules`. Accepted exactly when
    /// Google sign-in is on (the tokens' `aud` is one of Google's audiences).
    package func verifyGoogleSecurityEvent(
        _ token: String, deadline: Deadline
    ) throws(TokenError) -> GoogleSecurityEventToken {
        guard configuration.google.isEnabled else {
            throw TokenError(
                kind: .unsupportedProvider, message: "Google sign-in is not enabled for this deployment")
        }
        let claims = try verifiedClaims(token, source: .googleSecurityEvents, deadline: deadline)
        return try SecurityEventRules(
            issuers: VerifierConfiguration.googleRISCIssuers, audiences: configuration.google.audiences,
            leeway: configuration.leewaySeconds
        )
        .validate(claims, now: now())
    }
}
