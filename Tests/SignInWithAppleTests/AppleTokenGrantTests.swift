import Testing

@testable import SignInWithApple

struct AppleTokenGrantTests {
    @Test func noTokenShowsInTextOrMirror() {
        let grant = AppleTokenGrant(
            idToken: "eyJID.TOKEN.SIG", refreshToken: "rREFRESH.0.mxzs", accessToken: "aACCESS.0.mxzs")
        var dumped = ""
        dump(grant, to: &dumped)
        for text in [grant.description, String(reflecting: grant), "\(grant)", dumped] {
            #expect(!text.contains("TOKEN") && !text.contains("REFRESH") && !text.contains("ACCESS"), "\(text)")
        }
    }

    @Test func theRefreshTokenIsRevokedWhenThereIsOne() {
        let both = AppleTokenGrant(idToken: "i", refreshToken: "r", accessToken: "a")
        #expect(both.revocable.token == "r" && both.revocable.kind == .refreshToken)
        let accessOnly = AppleTokenGrant(idToken: "i", refreshToken: nil, accessToken: "a")
        #expect(accessOnly.revocable.token == "a" && accessOnly.revocable.kind == .accessToken)
        #expect(accessOnly.description.contains("refreshToken: none"))
    }
}
