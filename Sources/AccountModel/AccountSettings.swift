/// What the account flows need from configuration (AuthService reads it from the environment).
package struct AccountSettings: Sendable {
    package var bucket: String
    package var region: String
    package var userRoleARN: String
    package var credentialsDurationSeconds: Int
    package var refreshTokenTTLSeconds: Int64
    package var recentAuthSeconds: Int64
    package var refreshReuseGraceSeconds: Int64

    package init(
        bucket: String, region: String, userRoleARN: String, credentialsDurationSeconds: Int = 3600,
        refreshTokenTTLSeconds: Int64 = 2_592_000, recentAuthSeconds: Int64 = 600, refreshReuseGraceSeconds: Int64 = 30
    ) {
        self.bucket = bucket
        self.region = region
        self.userRoleARN = userRoleARN
        self.credentialsDurationSeconds = credentialsDurationSeconds
        self.refreshTokenTTLSeconds = refreshTokenTTLSeconds
        self.recentAuthSeconds = recentAuthSeconds
        self.refreshReuseGraceSeconds = refreshReuseGraceSeconds
    }
}

package enum SignInIntent: String, Sendable {
    case signin, signup, auto
}
