import Testing

@testable import PlatformSupport

/// The configuration URL rules shared by `AWS_ENDPOINT_URL*` and the JWKS URLs (and, next,
/// `APPLE_AUTH_URL`). The callers' own suites pin their decisions too.
@Suite struct HTTPURLTests {
    func parse(_ text: String, query: Bool = false) -> HTTPURL? {
        try? HTTPURL(text, variable: "X_URL", allowingQueryAndFragment: query)
    }

    @Test func parts() throws {
        let url = try #require(parse("HTTPS://S3.Example.COM:8443/Base/Path/"))
        #expect(url.scheme == "https" && url.host == "s3.example.com" && url.port == 8443 && url.path == "/Base/Path/")
        let bare = try #require(parse("http://127.0.0.1"))
        #expect(bare.scheme == "http" && bare.host == "127.0.0.1" && bare.port == nil && bare.path == "")
        let v6 = try #require(parse("http://[::1]:9000/k"))
        #expect(v6.host == "[::1]" && v6.port == 9000 && v6.path == "/k")
        let mapped = try #require(parse("https://[::FFFF:127.0.0.1]/"))
        #expect(mapped.host == "[::ffff:127.0.0.1]")
        let withQuery = try #require(parse("https://keys.example.com/jwks?tenant=a#frag", query: true))
        #expect(withQuery.path == "/jwks")
        #expect(try #require(parse("https://h/a@b")).path == "/a@b", "@ in the path is not user information")
        #expect(parse("http://h:65535") != nil && parse("http://h:1") != nil && parse("http://h:00080")?.port == 80)
    }

    @Test(arguments: [
        "", "h", "//h/", "ftp://h/", "file:///etc/passwd", "https://", "http:///path", "https://a b/",
        "https://h/\u{7F}",
        "https://h/\u{E9}", "https://h\t/", "http://u:p@h/", "http://@h/", "http://h:", "http://h:0", "http://h:65536",
        "http://h:99999", "http://h:123456", "http://h:+80", "http://h:-1", "http://h:8a", "http://h:80:90",
        "http://[::1",
        "http://[::1]x/", "http://[::1]:/", "http://[]/", "http://[zz]/", "http://[::1%25eth0]/", "http://a_b/",
        "http://a!b/",
        "http://a[b]/", "http://h?x", "http://h/#f", "http://h/p?x=1",
    ])
    func refused(_ text: String) {
        #expect(parse(text) == nil, "\(text)")
    }

    @Test func queryAndFragmentOnlyWhenAllowed() {
        for text in ["http://h?x", "http://h/#f", "http://h/p?x=1&y#z"] {
            #expect(parse(text) == nil && parse(text, query: true) != nil, "\(text)")
        }
        #expect(parse("http://h?@evil/", query: true)?.host == "h", "an @ after the authority is not user information")
    }

    @Test func lengthIsBounded() {
        let path = "/" + String(repeating: "a", count: HTTPURL.maxBytes - "https://h/".utf8.count)
        #expect(parse("https://h" + path) != nil)
        #expect(parse("https://h" + path + "a") == nil)
    }

    @Test func refusalNamesTheVariableNeverTheValue() {
        for text in [
            "ftp://secret-value", "http://user:secret-value@h/", "http://secret-value:99999/", "https://secret value/",
        ] {
            do {
                _ = try HTTPURL(text, variable: "AWS_ENDPOINT_URL_S3")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.variable == "AWS_ENDPOINT_URL_S3")
                #expect(!error.description.contains("secret"), "\(error)")
            }
        }
    }

    @Test(arguments: ["localhost", "[::1]", "127.0.0.1", "127.1.2.3", "127.255.255.255", "127.000.0.01"])
    func loopbackHosts(_ host: String) {
        #expect(HTTPURL.isLoopbackHost(host))
    }

    @Test(arguments: [
        "", "localhost.evil.com", "127.0.0.1.evil.com", "10.0.0.1", "128.0.0.1", "127.0.0", "127.0.0.256",
        "127.0.0.0001", "0x7f.0.0.1", "0127.0.0.1", "127..0.1", "[::2]", "[0:0:0:0:0:0:0:1]", "::1", "localhost.",
    ])
    func notLoopbackHosts(_ host: String) {
        #expect(!HTTPURL.isLoopbackHost(host))
    }

    @Test func httpsOrLoopback() throws {
        for ok in [
            "https://keys.example.com/jwks?x=1", "http://localhost/k", "HTTP://LOCALHOST:8080/k",
            "http://127.0.0.1:9/k#f",
            "http://[::1]/k",
        ] {
            #expect((try? HTTPURL.httpsOrLoopback(ok, variable: "APPLE_JWKS_URL")) != nil, "\(ok)")
        }
        for bad in [
            "http://keys.example.com/jwks", "http://10.0.0.1/k", "http://127.0.0.1.nip.io/k", "http://[::2]/k",
            "ftp://localhost/",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try HTTPURL.httpsOrLoopback(bad, variable: "APPLE_JWKS_URL")
            }
        }
    }
}
