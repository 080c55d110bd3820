import AccountModel
import PlatformSupport

/// AccountModel's refresh-token parser: what parses is exactly the token `issue` makes of the
/// parts it read (one text per token: a token's hash is its identity in the session record).
enum RefreshTokenFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self), let token = RefreshToken.parse(text) else { return }
        require(token.value == text, "refresh-token: the value is the text")
        guard let raw = Base64.urlDecode(text.dropFirst(4)), raw.count == 64 else {
            require(false, "refresh-token: the body is 64 bytes of base64url")
            return
        }
        let issued = RefreshToken.issue(
            serviceUserID: token.serviceUserID, sessionID: token.sessionID, secret: Array(raw[32...]))
        require(issued == token, "refresh-token: issue(parse(x)) == parse(x)")
    }

    static var seeds: [(name: String, bytes: [UInt8])] {
        let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
        return [
            (
                "zero-secret",
                RefreshToken.issue(
                    serviceUserID: uuid, sessionID: String(repeating: "0", count: 32),
                    secret: [UInt8](repeating: 0, count: 32))
            ),
            (
                "ff-secret",
                RefreshToken.issue(
                    serviceUserID: uuid, sessionID: String(repeating: "f", count: 32),
                    secret: [UInt8](repeating: 0xFF, count: 32))
            ),
            (
                "mixed",
                RefreshToken.issue(
                    serviceUserID: uuid, sessionID: "5f2b1a4c9e8d7f6a5b4c3d2e1f0a9b8c",
                    secret: (0..<32).map { UInt8($0 * 7 + 3) })
            ),
        ].map { ($0.0, Array($0.1.value.utf8)) }
    }
}
