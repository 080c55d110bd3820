import StrictJSON

/// What a Firebase ID token must satisfy beyond the rules every provider shares (`ClaimRules`:
/// issuer, audience, times, the identity character rule, nonce), as Firebase documents for
/// verifying its tokens with a third-party JWT library and its Admin SDK checks them:
/// - `sub` (the uid) at most 128 characters;
/// - `auth_time` present, an integer time, not in the future (the leeway `iat` gets);
/// - `firebase.sign_in_provider` present; `anonymous` only when the deployment allows it.
/// Nothing is read from `firebase.identities`: that would take Firebase's word for an Apple or
/// Google `sub`, and link an account nobody proved here.
struct FirebaseClaimRules {
    /// Firebase's own limit on a uid.
    static let maxSubjectBytes = 128

    let allowAnonymous: Bool
    let leeway: Int64

    /// Runs after the shared `sub` check, so `subject` is already ASCII (bytes are characters).
    func validate(_ claims: JSONObject, subject: String, now: Int64) throws(TokenError) {
        guard subject.utf8.count <= Self.maxSubjectBytes else {
            throw .invalid("subject is longer than Firebase's 128-character uid")
        }

        // auth_time: when the user signed in to Firebase (the same through every hourly token
        // refresh). Firebase always sends it; a time ahead of ours is refused as iat is.
        guard let authValue = claims["auth_time"] else {
            throw .invalid("token has no authentication time (auth_time)")
        }
        guard let authTime = authValue.int64Value else {
            throw .invalid("token authentication time (auth_time) is not an integer time")
        }
        if authTime > now &+ leeway { throw .invalid("token authentication time (auth_time) is in the future") }

        // firebase.sign_in_provider: always present in a Firebase ID token. Without it an
        // anonymous user could not be told apart, so its absence is refused, not guessed at.
        guard let firebase = claims["firebase"] else { throw .invalid("token has no firebase claim") }
        guard let details = firebase.objectValue else { throw .invalid("claim firebase is not an object") }
        guard let method = details["sign_in_provider"] else {
            throw .invalid("token has no firebase.sign_in_provider")
        }
        guard let methodText = method.stringValue else {
            throw .invalid("claim firebase.sign_in_provider is not a string")
        }
        if methodText == "anonymous" && !allowAnonymous {
            throw .invalid("anonymous Firebase users are not accepted by this deployment")
        }
    }
}
