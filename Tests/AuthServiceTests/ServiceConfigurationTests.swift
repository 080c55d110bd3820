import PlatformSupport
import Testing
import TokenVerification

@testable import AuthService

@Suite struct ServiceConfigurationTests {
    static let minimal = [
        "IDENTITY_BUCKET": "photo-identities", "USER_ROLE_ARN": "arn:aws:iam::123456789012:role/user-access",
        "AWS_REGION": "eu-west-1",
        "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEEXAMPLE00", "AWS_SECRET_ACCESS_KEY": "not-a-real-secret",
        "APPLE_AUDIENCES": "com.example.photos",
    ]

    func configuration(_ overrides: [String: String?] = [:]) throws(ConfigurationError) -> ServiceConfiguration {
        var env = Self.minimal
        for (k, v) in overrides { env[k] = v }
        return try ServiceConfiguration.from(environment: { env[$0].flatMap { $0.isEmpty ? nil : $0 } })
    }

    func failure(_ overrides: [String: String?]) -> ConfigurationError? {
        do throws(ConfigurationError) {
            _ = try configuration(overrides)
            return nil
        } catch { return error }
    }

    @Test func theContractsDefaults() throws {
        let c = try configuration()
        #expect(c.account.bucket == "photo-identities" && c.account.region == "eu-west-1")
        #expect(c.account.credentialsDurationSeconds == 3600 && c.account.refreshTokenTTLSeconds == 2_592_000)
        #expect(c.account.recentAuthSeconds == 600 && c.account.refreshReuseGraceSeconds == 30)
        #expect(c.verifier.apple.audiences == ["com.example.photos"] && !c.verifier.google.isEnabled)
    }

    @Test(arguments: ["IDENTITY_BUCKET", "USER_ROLE_ARN"])
    func requiredVariables(name: String) {
        #expect(failure([name: nil]) == ConfigurationError(variable: name, message: "is required"))
        #expect(failure([name: ""])?.variable == name, "empty means unset")
    }

    @Test(arguments: ["Photo-Identities", "ab", "bucket..name", "-bucket", String(repeating: "a", count: 64)])
    func bucketNamesFollowS3sRules(bucket: String) {
        #expect(failure(["IDENTITY_BUCKET": bucket])?.variable == "IDENTITY_BUCKET")
    }

    @Test(arguments: [
        "arn:aws:iam::12345678901:role/x", "arn:aws:iam::123456789012:user/x", "arn:aws:s3:::bucket", "role/x",
        "arn:aws:iam::123456789012:role/", "arn:aws:iam:us-east-1:123456789012:role/x",
    ])
    func theUserRoleMustBeAnIAMRoleARN(arn: String) {
        #expect(failure(["USER_ROLE_ARN": arn])?.variable == "USER_ROLE_ARN")
    }

    @Test func durationsStayInTheirRanges() throws {
        let cases: [(String, String, Bool)] = [
            ("CREDENTIALS_DURATION_SECONDS", "900", true), ("CREDENTIALS_DURATION_SECONDS", "3600", true),
            ("CREDENTIALS_DURATION_SECONDS", "899", false), ("CREDENTIALS_DURATION_SECONDS", "3601", false),
            ("CREDENTIALS_DURATION_SECONDS", "1h", false),
            ("REFRESH_TOKEN_TTL_SECONDS", "300", true), ("REFRESH_TOKEN_TTL_SECONDS", "31536000", true),
            ("REFRESH_TOKEN_TTL_SECONDS", "299", false),
            ("RECENT_AUTH_SECONDS", "0", true), ("RECENT_AUTH_SECONDS", "86401", false),
            ("RECENT_AUTH_SECONDS", "-1", false),
            ("REFRESH_REUSE_GRACE_SECONDS", "0", true), ("REFRESH_REUSE_GRACE_SECONDS", "300", true),
            ("REFRESH_REUSE_GRACE_SECONDS", "301", false),
        ]
        for (name, value, ok) in cases {
            let error = failure([name: value])
            #expect((error == nil) == ok, "\(name)=\(value)")
            if !ok { #expect(error?.variable == name && error?.message.contains(value) == false) }
        }
        #expect(try configuration(["RECENT_AUTH_SECONDS": "5"]).account.recentAuthSeconds == 5)
    }

    @Test func awsAndVerifierSettingsAreReadFromTheSameEnvironment() throws {
        #expect(failure(["AWS_REGION": nil]) != nil)
        #expect(failure(["APPLE_JWKS_URL": "http://example.com/keys"])?.variable == "APPLE_JWKS_URL")
        let c = try configuration([
            "AWS_ENDPOINT_URL": "http://127.0.0.1:5000", "GOOGLE_AUDIENCES": "a.apps.googleusercontent.com",
        ])
        #expect(c.aws.s3Endpoint.host == "127.0.0.1" && c.verifier.google.isEnabled)
    }

    /// Firebase's three settings are read through the same lookup and refused by name (the
    /// rules themselves: TokenVerificationTests.FirebaseConfigurationTests).
    @Test func firebaseIsReadFromTheSameEnvironment() throws {
        #expect(try !configuration().verifier.firebase.isEnabled, "off unless FIREBASE_PROJECT_ID is set")
        let c = try configuration(["FIREBASE_PROJECT_ID": "photos-4f2a1", "FIREBASE_ALLOW_ANONYMOUS": "true"])
        #expect(c.verifier.firebase.projectID == "photos-4f2a1" && c.verifier.firebase.allowAnonymous)
        #expect(c.verifier.enabledProviders == [.apple, .firebase])
        for (name, value) in [
            ("FIREBASE_PROJECT_ID", "Photos_4F2A1"), ("FIREBASE_JWKS_URL", "http://keys.example.com/jwk"),
            ("FIREBASE_ALLOW_ANONYMOUS", "yes"),
        ] {
            let error = failure([name: value])
            #expect(error?.variable == name && error?.description.contains(value) == false, "\(name)")
        }
    }

    @Test func anErrorNeverCarriesTheValue() {
        let secret = "arn:aws:iam::123456789012:user/secret-name"
        #expect(failure(["USER_ROLE_ARN": secret]).map { !$0.description.contains("secret-name") } == true)
    }
}
