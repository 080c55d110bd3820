import AWSClients
import AccountModel
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// Markers of processed notifications, and what identity a key names.
extension AccountStore {
    /// A notification id as a key segment: itself when it is a safe one, else its SHA-256 in hex.
    package static func markerName(_ id: String) -> String {
        ProviderSubject.isValid(id) && id.utf8.count <= 128 ? id : Hex.encode(SHA256.hash(id))
    }

    /// Marks a notification processed, after its idempotent effect (both kinds of Apple's
    /// notifications). A 412 means a concurrent delivery marked it: the effect is the same.
    package func markProcessed(_ marker: String, deadline: Deadline) throws(AccountError) {
        let mark = S3Put(key: marker, body: [], contentType: "application/octet-stream", condition: .ifNoneMatch)
        _ = try backend.put(mark, deadline: deadline)
    }

    /// The identity an identity file's key names.
    package static func identity(ofKey key: String) -> (IdentityProvider, String)? {
        let parts = key.split(separator: "/")
        guard parts.count == 3, parts[0] == "identities", let provider = IdentityProvider(rawValue: String(parts[1]))
        else { return nil }
        return (provider, String(parts[2]))
    }

    /// How long past its request a deletion may take: the contract's bound on the second pass.
    package func deletionBoundMs() -> Int64 { Int64(settings.credentialsDurationSeconds) * 1000 + 3_600_000 }
}
