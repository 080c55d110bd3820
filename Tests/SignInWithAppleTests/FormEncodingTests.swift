import Testing

@testable import SignInWithApple

struct FormEncodingTests {
    @Test func everythingButUnreservedIsPercentEncoded() {
        let body = FormEncoding.body([("client_id", "com.example.app"), ("code", "a b&c=d+e/f~g_h-i.é")])
        #expect(
            String(decoding: body, as: UTF8.self) == "client_id=com.example.app&code=a%20b%26c%3Dd%2Be%2Ff~g_h-i.%C3%A9"
        )
    }
}
