import Testing

@testable import SignInWithApple

struct AppleKeySourceTests {
    @Test func aPEMIsRedactedAndAParameterNameShows() {
        let pem = AppleKeySource.pem("-----BEGIN PRIVATE KEY-----\nSECRET\n-----END PRIVATE KEY-----\n")
        var dumped = ""
        dump(pem, to: &dumped)
        for text in [pem.description, String(reflecting: pem), "\(pem)", dumped] {
            #expect(!text.contains("SECRET") && !text.contains("BEGIN"), "\(text)")
        }
        let parameter = AppleKeySource.parameter(name: "/signin/apple-key")
        #expect(parameter.description.contains("/signin/apple-key"))
        #expect(pem.variable == "APPLE_PRIVATE_KEY")
        #expect(parameter.variable == "APPLE_PRIVATE_KEY_PARAMETER")
    }
}
