import CryptoPrimitives
import PlatformSupport

/// An opaque refresh token: `rt1_` + base64url(uuid 16 bytes ‖ session id 16 bytes ‖ secret 32 bytes).
/// The account and session are inside so a refresh is one GET away from its record; the 256-bit
/// secret comes from the kernel CSPRNG. Only SHA-256 of the whole token string is ever stored.
package struct RefreshToken: Sendable, Equatable {
    package static let prefix = "rt1_"
    package static let secretBytes = 32

    package let serviceUserID: String
    package let sessionID: String
    /// The token as handed to the client. Never logged.
    package let value: String

    /// A token for an existing or new session around `secret` (`secretBytes` random bytes).
    package static func issue(serviceUserID: String, sessionID: String, secret: [UInt8]) -> RefreshToken {
        precondition(secret.count == secretBytes && AccountKeys.isHexID(sessionID))
        let raw = Hex.decode(serviceUserID.replacingDashes())! + Hex.decode(sessionID)! + secret
        return RefreshToken(serviceUserID: serviceUserID, sessionID: sessionID, value: prefix + Base64.urlEncode(raw))
    }

    /// A token with a secret from the kernel CSPRNG.
    package static func issue(serviceUserID: String, sessionID: String) -> RefreshToken {
        issue(serviceUserID: serviceUserID, sessionID: sessionID, secret: SecureRandom.bytes(secretBytes))
    }

    /// Parses a token's structure (not its validity: that needs the stored hash).
    package static func parse(_ text: String) -> RefreshToken? {
        guard text.utf8.count == prefix.utf8.count + 86, text.hasPrefix(prefix),
            let raw = Base64.urlDecode(text.dropFirst(prefix.count)), raw.count == 64
        else { return nil }
        return RefreshToken(
            serviceUserID: UUIDText.format(raw[0..<16]), sessionID: Hex.encode(raw[16..<32]), value: text)
    }

    /// What is stored: lowercase hex SHA-256 of the token string.
    package var hash: String { Hex.encode(SHA256.hash(value)) }
}

extension String {
    package func replacingDashes() -> String {
        String(decoding: utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
    }
}
