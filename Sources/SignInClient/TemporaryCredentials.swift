import Foundation

/// The STS credentials for the user's prefix. Like every answer type (the `data` of a successful
/// envelope, one type per answer): unknown fields are ignored (the contract only ever adds
/// fields); every field the contract always sends is required, so a missing one is an error that
/// names its path.
public struct TemporaryCredentials: Codable, Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String
    public var expiration: Date

    /// Never shows the secret or the session token (also what `print` and `dump` show).
    public var redacted: String { "TemporaryCredentials(\(accessKeyId.prefix(4))…, expires \(expiration))" }
    public var description: String { redacted }
    public var debugDescription: String { redacted }
}
