import CryptoPrimitives
import PlatformSupport
import StrictJSON

/// The provider rules over a verified token's claims (docs/API.md: INVALID_TOKEN, TOKEN_EXPIRED; issue 4).
/// Order: who issued it and for whom (iss, aud, azp), then when (exp, iat, nbf), then whom it
/// names (sub), then Firebase's own rules (`FirebaseClaimRules`: sub length, auth_time, sign-in
/// method), then the request's nonce, then the profile claims.
package struct ClaimRules {
    static let maxLifetimeAhead: Int64 = 24 * 3600

    let provider: IdentityProvider
    let issuers: [String]
    let audiences: [String]
    /// Audiences whose tokens count only with the request's nonce (Apple's web flow).
    let nonceRequired: [String]
    let leeway: Int64
    /// Set exactly when `provider` is Firebase.
    let firebase: FirebaseClaimRules?

    /// iss: exact match with one of the provider's issuers (Firebase: this project's only). aud: a
    /// string or a non-empty array of strings; one of them must be configured. Firebase sends the
    /// project id as a plain string and its Admin SDK accepts nothing else. Also the rule for
    /// Apple's notifications (`what`: "notification").
    static func checkIssuerAndAudience(
        _ claims: JSONObject, _ provider: IdentityProvider, issuers: [String], audiences: [String],
        what: String = "token"
    ) throws(TokenError) {
        let who = provider.displayName
        let expectedAudience =
            provider == .firebase ? "this deployment's Firebase project" : "one of this deployment's \(who) audiences"
        guard let iss = claims["iss"]?.stringValue, issuers.contains(iss) else {
            throw .invalid(provider == .firebase ? "issuer is not this Firebase project's" : "issuer is not \(who)'s")
        }
        switch claims["aud"] {
        case .string(let aud)?:
            guard audiences.contains(aud) else { throw .invalid("audience is not \(expectedAudience)") }
        case .array? where provider == .firebase:
            throw .invalid("audience is a list; Firebase's is the project id alone")
        case .array(let list)?:
            var matched = false
            for item in list {
                guard let aud = item.stringValue else { throw .invalid("audience list holds a non-string") }
                if audiences.contains(aud) { matched = true }
            }
            guard matched else { throw .invalid("audience is not \(expectedAudience)") }
        default:
            throw .invalid("\(what) has no audience")
        }
    }

    /// The token's `aud` as a list (a string is a list of one; checked before this is used).
    static func audienceList(_ claims: JSONObject) -> [String] {
        switch claims["aud"] {
        case .string(let aud)?: return [aud]
        case .array(let list)?: return list.compactMap(\.stringValue)
        default: return []
        }
    }

    /// An event token's `iat` (Apple's account notifications, Google's security events): an integer,
    /// not in the future (beyond `leeway`), and not older than `maxAge` seconds (`maxAgeText` says
    /// how old, for the message), so that its `jti` marker still exists when it comes again.
    static func checkIssuedAt(
        _ claims: JSONObject, now: Int64, leeway: Int64, maxAge: Int64, maxAgeText: String, what: String
    ) throws(TokenError) -> Int64 {
        guard let iat = claims["iat"]?.int64Value else { throw .invalid("\(what) has no integer issue time (iat)") }
        if iat > now &+ leeway { throw .invalid("\(what) issue time (iat) is in the future") }
        if now > iat &+ maxAge { throw .invalid("\(what) is more than \(maxAgeText) old") }
        return iat
    }

    /// The rules `configuration` sets for `provider`'s tokens.
    init(_ provider: IdentityProvider, _ configuration: VerifierConfiguration) {
        self.provider = provider
        issuers = configuration.issuers(for: provider)
        audiences = configuration.settings(for: provider).audiences
        nonceRequired = configuration.settings(for: provider).nonceRequired
        leeway = configuration.leewaySeconds
        firebase =
            provider == .firebase
            ? FirebaseClaimRules(allowAnonymous: configuration.firebase.allowAnonymous, leeway: leeway) : nil
    }

    func validate(_ claims: JSONObject, now: Int64, nonce: String?) throws(TokenError) -> VerifiedIdentity {
        try Self.checkIssuerAndAudience(claims, provider, issuers: issuers, audiences: audiences)

        // azp (Google): when present, one of the configured client ids.
        if provider == .google, let azp = claims["azp"] {
            guard let value = azp.stringValue, audiences.contains(value) else {
                throw .invalid("authorized party (azp) is not one of this deployment's Google audiences")
            }
        }

        // Times, with leeway: exp passed → expired; iat in the future, nbf ahead, exp too far out → invalid.
        guard let expValue = claims["exp"] else { throw .invalid("token has no expiry (exp)") }
        guard let exp = expValue.int64Value else { throw .invalid("token expiry (exp) is not an integer time") }
        guard let iatValue = claims["iat"] else { throw .invalid("token has no issue time (iat)") }
        guard let iat = iatValue.int64Value else { throw .invalid("token issue time (iat) is not an integer time") }
        if now > exp &+ leeway { throw TokenError(kind: .expired, message: "token has expired") }
        if iat > now &+ leeway { throw .invalid("token issue time (iat) is in the future") }
        if exp > now &+ Self.maxLifetimeAhead &+ leeway { throw .invalid("token expires more than 24 hours ahead") }
        if iat > exp { throw .invalid("token issue time (iat) is after its expiry") }
        if let nbfValue = claims["nbf"] {
            guard let nbf = nbfValue.int64Value else { throw .invalid("token not-before (nbf) is not an integer time") }
            if nbf > now &+ leeway { throw .invalid("token is not valid yet (nbf)") }
        }

        // sub: safe as a path segment of an S3 key.
        guard let sub = claims["sub"]?.stringValue else { throw .invalid("token has no subject") }
        guard Self.isValidSubject(sub) else { throw .invalid("subject is not a valid provider user id") }

        // Firebase: the uid's own limit, auth_time, and anonymous users only when allowed.
        try firebase?.validate(claims, subject: sub, now: now)

        // A token minted for the web flow (a Services ID) passed through a browser and a redirect:
        // only its nonce binds it to the app that asked, so it counts only with that nonce.
        if nonce == nil, Self.audienceList(claims).contains(where: nonceRequired.contains) {
            throw .invalid("a token for the web flow's Services ID needs the request's nonce")
        }
        // nonce: when the request gives one, the claim must equal it or its lowercase hex SHA-256.
        if let nonce {
            guard let claimed = claims["nonce"] else { throw .invalid("token has no nonce but the request gave one") }
            guard let claimedText = claimed.stringValue,
                claimedText == nonce || claimedText == SHA256.hexHash(Array(nonce.utf8))
            else { throw .invalid("nonce does not match the request's") }
        }

        return VerifiedIdentity(
            provider: provider, subject: sub,
            email: try string("email", claims),
            emailVerified: try flag("email_verified", claims),
            isPrivateEmail: try flag("is_private_email", claims),
            name: try string("name", claims),
            realUserStatus: try smallInt("real_user_status", claims),
            transferSub: provider == .apple ? try transferSub(claims) : nil)
    }

    /// Apple's `transfer_sub` (an app transfer's identifier, for 60 days after it): absent or
    /// null → nil; otherwise it must satisfy the `sub` rule, since it names an S3 key
    /// (`identities/apple-transfer/<transfer_sub>`). Other providers' tokens never carry one
    /// that counts.
    private func transferSub(_ claims: JSONObject) throws(TokenError) -> String? {
        guard let value = try string("transfer_sub", claims) else { return nil }
        guard Self.isValidSubject(value) else {
            throw .invalid("transfer_sub is not a valid Apple transfer identifier")
        }
        return value
    }

    /// The providerID rule, shared with the account store (`PlatformSupport.ProviderSubject`).
    package static func isValidSubject(_ sub: String) -> Bool { ProviderSubject.isValid(sub) }

    /// Absent or null → nil; a string → it; anything else → invalid (a signed token of an
    /// unexpected shape is refused rather than guessed at).
    private func string(_ name: String, _ claims: JSONObject) throws(TokenError) -> String? {
        switch claims[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .invalid("claim \(name) is not a string")
        }
    }

    /// Booleans arrive as `true`/`false` or as the strings "true"/"false" (Apple sends both).
    private func flag(_ name: String, _ claims: JSONObject) throws(TokenError) -> Bool? {
        switch claims[name] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .string("true")?: return true
        case .string("false")?: return false
        default: throw .invalid("claim \(name) is neither a boolean nor \"true\"/\"false\"")
        }
    }

    private func smallInt(_ name: String, _ claims: JSONObject) throws(TokenError) -> Int? {
        switch claims[name] {
        case nil, .null?: return nil
        case let value?:
            guard let v = value.int64Value, (-1_000_000...1_000_000).contains(v) else {
                throw .invalid("claim \(name) is not a small integer")
            }
            return Int(v)
        }
    }
}
