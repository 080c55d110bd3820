import Testing

@testable import SignInClient

@Suite struct SHA256DigestTests {
    // FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the empty string.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownDigests(message: String, digest: String) {
        #expect(SHA256Digest.hex(Array(message.utf8)) == digest)
    }

    @Test func nonceHashIsTheHexOfTheRawNonce() {
        let nonce = SignInWithAppleNonce()
        #expect(nonce.raw.count == 32)
        #expect(nonce.hashed == SHA256Digest.hex(Array(nonce.raw.utf8)))
        #expect(SignInWithAppleNonce() != nonce)
    }
}
