import PlatformSupport
import Testing

@testable import TokenVerification

struct ConfigurationTests {
    @Test func defaultsAndAudiences() throws {
        let env = ["APPLE_AUDIENCES": " com.example.app , com.example.app.web,,", "GOOGLE_AUDIENCES": ""]
        let c = try VerifierConfiguration.from(environment: { env[$0] })
        #expect(c.apple.audiences == ["com.example.app", "com.example.app.web"])
        #expect(c.apple.isEnabled)
        #expect(c.google.audiences.isEmpty)
        #expect(!c.google.isEnabled)
        #expect(c.apple.jwksURL == "https://appleid.apple.com/auth/keys")
        #expect(c.google.jwksURL == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(c.leewaySeconds == 60)
    }

    @Test func acceptedJWKSURLs() throws {
        for url in [
            "https://keys.example.com/jwks", "HTTPS://Example.com:8443/x", "http://127.0.0.1:8080/apple/keys",
            "http://localhost/keys", "http://[::1]:9000/k", "http://127.1.2.3/k",
        ] {
            let env = ["APPLE_JWKS_URL": url]
            #expect((try? VerifierConfiguration.from(environment: { env[$0] }))?.apple.jwksURL == url, "\(url)")
        }
    }

    /// Edges of the shared rule (`HTTPURL.httpsOrLoopback`): a query or fragment and an `@` in the
    /// path are fine; the URL is kept exactly as configured.
    @Test func moreAcceptedJWKSURLs() throws {
        for url in [
            "https://keys.example.com/jwks?tenant=1", "https://keys.example.com/certs#v2",
            "https://keys.example.com/a@b",
            "http://LOCALHOST:65535/k", "https://[2001:db8::1]/keys",
        ] {
            let env = ["GOOGLE_JWKS_URL": url]
            #expect((try? VerifierConfiguration.from(environment: { env[$0] }))?.google.jwksURL == url, "\(url)")
        }
    }

    @Test func moreRefusedJWKSURLs() {
        for url in [
            "https://keys.example.com:0/k", "https://keys.example.com:99999/k", "https://a_b.example.com/k",
            "https://[zz]/k",
            "https://keys.example.com/\u{E9}", "http://[::1", "https://h\t/", "http://127.0.0.1@evil.com/k",
        ] {
            let env = ["APPLE_JWKS_URL": url]
            do {
                _ = try VerifierConfiguration.from(environment: { env[$0] })
                Issue.record("accepted \(url)")
            } catch {
                #expect(error.variable == "APPLE_JWKS_URL")
            }
        }
    }

    @Test func audiencesTrimASCIIWhitespace() {
        #expect(
            VerifierConfiguration.audiences("\tcom.example.a\n, com.example.b\r\n,\u{0B}") == [
                "com.example.a", "com.example.b",
            ])
        #expect(VerifierConfiguration.audiences("a,a, a") == ["a"])
        #expect(VerifierConfiguration.audiences(nil) == [])
    }

    @Test func refusedJWKSURLs() {
        for url in [
            "http://appleid.apple.com/auth/keys", "ftp://127.0.0.1/k", "file:///etc/passwd", "https://",
            "http://10.0.0.1/k",
            "http://127.0.0.1.evil.com/k", "http://user@127.0.0.1/k", "https://a b/", "http://localhost.evil.com/k",
            "http://127.0.0.1:abc/k", "//127.0.0.1/k", "http://0x7f.0.0.1/k", "http://[::2]/k",
        ] {
            let env = ["GOOGLE_JWKS_URL": url]
            #expect(throws: ConfigurationError.self, "\(url)") {
                try VerifierConfiguration.from(environment: { env[$0] })
            }
        }
    }
}

/// Firebase's settings (issue 13): off unless FIREBASE_PROJECT_ID names a project; each
/// refusal names its variable and never the value.
struct FirebaseConfigurationTests {
    func configuration(_ env: [String: String]) throws(ConfigurationError) -> VerifierConfiguration {
        try VerifierConfiguration.from(environment: { env[$0] })
    }

    func refusal(_ env: [String: String]) -> ConfigurationError? {
        do throws(ConfigurationError) {
            _ = try configuration(env)
            return nil
        } catch { return error }
    }

    @Test func offByDefault() throws {
        for env in [[:], ["FIREBASE_PROJECT_ID": ""]] {
            let c = try configuration(env)
            #expect(!c.firebase.isEnabled && c.firebase.projectID == nil && !c.firebase.allowAnonymous)
            #expect(
                c.firebase.jwksURL
                    == "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
            #expect(c.issuers(for: .firebase).isEmpty && c.settings(for: .firebase).audiences.isEmpty)
            #expect(!c.enabledProviders.contains(.firebase))
        }
    }

    @Test func theProjectFixesIssuerAndAudience() throws {
        let c = try configuration(["FIREBASE_PROJECT_ID": "photos-4f2a1", "APPLE_AUDIENCES": "com.example.app"])
        #expect(c.firebase.isEnabled && c.firebase.projectID == "photos-4f2a1")
        #expect(c.issuers(for: .firebase) == ["https://securetoken.google.com/photos-4f2a1"])
        #expect(c.settings(for: .firebase).audiences == ["photos-4f2a1"])
        #expect(c.enabledProviders == [.apple, .firebase])
    }

    /// The default URL passes the rule every JWKS URL follows (its '@' is in the path).
    @Test func theDefaultJWKSURLPassesTheURLRule() throws {
        let url = try HTTPURL.httpsOrLoopback(FirebaseSettings.defaultJWKSURL, variable: "FIREBASE_JWKS_URL")
        #expect(url.scheme == "https" && url.host == "www.googleapis.com")
        #expect(url.path == "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
    }

    @Test(arguments: [
        "abcdef", "photobackup-test", "a-1-b-2", "my-project-123", "a12345", String(repeating: "p", count: 30),
        "a" + String(repeating: "-", count: 4) + "z",
    ])
    func acceptedProjectIDs(id: String) throws {
        #expect(try configuration(["FIREBASE_PROJECT_ID": id]).firebase.projectID == id)
    }

    @Test(arguments: [
        "abcde", String(repeating: "p", count: 31), "1abcdef", "-abcdef", "abcdef-", "My-Project", "my_project",
        "my.project", "my project", " my-project", "my-project\n", "example.com:my-project", "proj\u{e9}ct-1",
        "my-project/x", "%6dy-project",
    ])
    func refusedProjectIDs(id: String) {
        let error = refusal(["FIREBASE_PROJECT_ID": id])
        #expect(error?.variable == "FIREBASE_PROJECT_ID")
        #expect(error?.message.contains("6-30 lowercase letters") == true)
        #expect(error.map { !$0.description.contains(id) } == true, "the value is never echoed")
    }

    @Test func jwksURLFollowsTheRuleOfTheOthers() throws {
        for url in ["https://keys.example.com/jwk", "http://127.0.0.1:8080/firebase/keys@x", "http://[::1]/k"] {
            #expect(try configuration(["FIREBASE_JWKS_URL": url]).firebase.jwksURL == url, "\(url)")
        }
        for url in ["http://www.googleapis.com/k", "ftp://127.0.0.1/k", "https://", "http://user@127.0.0.1/k"] {
            #expect(refusal(["FIREBASE_JWKS_URL": url])?.variable == "FIREBASE_JWKS_URL", "\(url)")
        }
        // Checked while the provider is off too, as APPLE_JWKS_URL is without audiences.
        #expect(refusal(["FIREBASE_JWKS_URL": "http://10.0.0.1/k", "FIREBASE_PROJECT_ID": ""]) != nil)
    }

    @Test func allowAnonymousIsTrueOrFalse() throws {
        #expect(try configuration(["FIREBASE_ALLOW_ANONYMOUS": "true"]).firebase.allowAnonymous)
        for off in ["false", ""] {
            #expect(try !configuration(["FIREBASE_ALLOW_ANONYMOUS": off]).firebase.allowAnonymous)
        }
        for value in ["TRUE", "True", "1", "yes", " true", "true\n", "on", "0"] {
            let error = refusal(["FIREBASE_ALLOW_ANONYMOUS": value, "FIREBASE_PROJECT_ID": "photobackup-test"])
            #expect(error == ConfigurationError(variable: "FIREBASE_ALLOW_ANONYMOUS", message: "must be true or false"))
        }
    }
}
