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
