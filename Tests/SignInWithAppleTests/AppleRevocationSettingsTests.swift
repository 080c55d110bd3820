import PlatformSupport
import Testing

@testable import SignInWithApple

/// Every configuration rule, as a table: the environment, and either the settings it gives (nil
/// = revocation off) or the variable a refusal names. No refusal quotes a value.
struct AppleRevocationSettingsTests {
    static let pem =
        "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET\n-----END PRIVATE KEY-----\n"
    static let base = [
        "APPLE_TEAM_ID": "TEAMID1234", "APPLE_KEY_ID": "KEYID12345", "APPLE_PRIVATE_KEY": pem,
        "APPLE_CLIENT_ID": "com.example.photobackup",
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        enum Expected: Sendable {
            case off
            case refused(variable: String)
            case settings(clientID: String, authURL: String, keySource: AppleKeySource)
        }
        let name: String
        let env: [String: String]
        let expected: Expected
        var testDescription: String { name }

        init(_ name: String, _ changes: [String: String?], _ expected: Expected, base: [String: String] = base) {
            var env = base
            for (k, v) in changes { env[k] = v }
            self.name = name
            self.env = env
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("nothing set", [:], .off, base: [:]),
        Case("team and key id empty", ["APPLE_TEAM_ID": "", "APPLE_KEY_ID": ""], .off, base: [:]),
        Case("team id alone", ["APPLE_KEY_ID": nil], .refused(variable: "APPLE_KEY_ID")),
        Case("key id alone", ["APPLE_TEAM_ID": ""], .refused(variable: "APPLE_TEAM_ID")),
        Case("team id lowercase", ["APPLE_TEAM_ID": "teamid1234"], .refused(variable: "APPLE_TEAM_ID")),
        Case("team id of 9", ["APPLE_TEAM_ID": "TEAMID123"], .refused(variable: "APPLE_TEAM_ID")),
        Case("team id of 11", ["APPLE_TEAM_ID": "TEAMID12345"], .refused(variable: "APPLE_TEAM_ID")),
        Case("key id with punctuation", ["APPLE_KEY_ID": "KEYID-1234"], .refused(variable: "APPLE_KEY_ID")),
        Case("key id with a newline", ["APPLE_KEY_ID": "KEYID1234\n"], .refused(variable: "APPLE_KEY_ID")),
        Case("no key", ["APPLE_PRIVATE_KEY": nil], .refused(variable: "APPLE_PRIVATE_KEY")),
        Case(
            "key and parameter", ["APPLE_PRIVATE_KEY_PARAMETER": "/signin/apple-key"],
            .refused(variable: "APPLE_PRIVATE_KEY")),
        Case(
            "parameter with a blank", ["APPLE_PRIVATE_KEY": nil, "APPLE_PRIVATE_KEY_PARAMETER": "/signin/apple key"],
            .refused(variable: "APPLE_PRIVATE_KEY_PARAMETER")),
        Case(
            "parameter as an ARN",
            [
                "APPLE_PRIVATE_KEY": nil,
                "APPLE_PRIVATE_KEY_PARAMETER": "arn:aws:ssm:eu-west-1:123456789012:parameter/k",
            ],
            .refused(variable: "APPLE_PRIVATE_KEY_PARAMETER")),
        Case(
            "parameter too long",
            ["APPLE_PRIVATE_KEY": nil, "APPLE_PRIVATE_KEY_PARAMETER": "/" + String(repeating: "k", count: 2048)],
            .refused(variable: "APPLE_PRIVATE_KEY_PARAMETER")),
        Case("no client id, no audiences", ["APPLE_CLIENT_ID": nil], .refused(variable: "APPLE_CLIENT_ID")),
        Case(
            "no client id, only blank audiences", ["APPLE_CLIENT_ID": "", "APPLE_AUDIENCES": " , ,"],
            .refused(variable: "APPLE_CLIENT_ID")),
        Case(
            "client id not among the audiences", ["APPLE_AUDIENCES": "com.example.other,com.example.web"],
            .refused(variable: "APPLE_CLIENT_ID")),
        Case("client id with a blank", ["APPLE_CLIENT_ID": "com.example photo"], .refused(variable: "APPLE_CLIENT_ID")),
        Case(
            "plain http to a public host", ["APPLE_AUTH_URL": "http://appleid.example.com"],
            .refused(variable: "APPLE_AUTH_URL")),
        Case("not http", ["APPLE_AUTH_URL": "ftp://127.0.0.1/auth"], .refused(variable: "APPLE_AUTH_URL")),
        Case(
            "a query", ["APPLE_AUTH_URL": "https://appleid.apple.com/?via=proxy"], .refused(variable: "APPLE_AUTH_URL")),
        Case(
            "user information", ["APPLE_AUTH_URL": "https://user:password@appleid.apple.com"],
            .refused(variable: "APPLE_AUTH_URL")),
        Case(
            "127.0.0.1 as a name prefix", ["APPLE_AUTH_URL": "http://127.0.0.1.example.com"],
            .refused(variable: "APPLE_AUTH_URL")),
        Case(
            "defaults: Apple, client id from the audiences",
            ["APPLE_CLIENT_ID": nil, "APPLE_AUDIENCES": " com.example.photobackup , com.example.web"],
            .settings(clientID: "com.example.photobackup", authURL: "https://appleid.apple.com", keySource: .pem(pem))),
        Case(
            "parameter, explicit client id among the audiences, loopback with a trailing slash",
            [
                "APPLE_PRIVATE_KEY": nil, "APPLE_PRIVATE_KEY_PARAMETER": "/signin/apple-key",
                "APPLE_AUDIENCES": "com.example.web,com.example.photobackup",
                "APPLE_AUTH_URL": "http://127.0.0.1:8080/",
            ],
            .settings(
                clientID: "com.example.photobackup", authURL: "http://127.0.0.1:8080",
                keySource: .parameter(name: "/signin/apple-key"))),
        Case(
            "scheme and host in capitals, a base path",
            ["APPLE_AUTH_URL": "HTTPS://AppleID.Apple.com/base//"],
            .settings(
                clientID: "com.example.photobackup", authURL: "https://appleid.apple.com/base", keySource: .pem(pem))),
        Case(
            "localhost", ["APPLE_AUTH_URL": "http://localhost:9/"],
            .settings(clientID: "com.example.photobackup", authURL: "http://localhost:9", keySource: .pem(pem))),
    ]

    @Test(arguments: cases) func rule(_ c: Case) throws {
        let read = { () throws(ConfigurationError) -> AppleRevocationSettings? in
            try AppleRevocationSettings.from(environment: { c.env[$0] })
        }
        switch c.expected {
        case .off:
            #expect(try read() == nil)
        case .refused(let variable):
            let error = try #require(throws: ConfigurationError.self) { try read() }
            #expect(error.variable == variable)
            for value in c.env.values where value.utf8.count >= 6 {
                #expect(!error.description.contains(value), "the message quotes a value")
            }
        case .settings(let clientID, let authURL, let keySource):
            let settings = try #require(try read())
            #expect(settings.teamID == "TEAMID1234")
            #expect(settings.keyID == "KEYID12345")
            #expect(settings.clientID == clientID)
            #expect(settings.authURL == authURL)
            #expect(settings.keySource == keySource)
        }
    }

    @Test func thePEMShowsNowhere() throws {
        let settings = try #require(try AppleRevocationSettings.from(environment: { Self.base[$0] }))
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [settings.description, String(reflecting: settings), "\(settings)", dumped] {
            #expect(!text.contains("SECRET") && !text.contains("BEGIN"), "\(text)")
            #expect(text.contains("TEAMID1234"))
        }
    }
}
