import PlatformSupport
import TokenVerification

/// The S3 layout (docs/API.md and the contract it states), in one place.
package enum AccountKeys {
    static func identity(_ provider: IdentityProvider, _ providerID: String) -> String {
        "identities/\(provider.rawValue)/\(providerID)"
    }

    static func userPrefix(_ uuid: String) -> String { "users/\(uuid)/" }
    static func profile(_ uuid: String) -> String { "users/\(uuid)/account/profile.json" }
    static func providers(_ uuid: String) -> String { "users/\(uuid)/account/providers.json" }
    static func sessionsPrefix(_ uuid: String) -> String { "users/\(uuid)/account/sessions/" }
    static func session(_ uuid: String, _ sessionID: String) -> String { sessionsPrefix(uuid) + sessionID + ".json" }

    /// An account deletion's record (`DeletionRecord`).
    static func deletion(_ uuid: String) -> String { "deletions/\(uuid).json" }
    static let deletionsPrefix = "deletions/"

    /// An App Store purchase's claim: the owning account's UUID (docs/API.md, `claimPurchase`).
    static func purchaseClaim(_ originalTransactionID: String) -> String { "purchases/apple/\(originalTransactionID)" }

    /// The newest verified state of an App Store purchase (`PurchaseState`); outlives the account.
    static func purchaseState(_ originalTransactionID: String) -> String {
        "purchases/apple-state/\(originalTransactionID).json"
    }

    /// Google's suspension of one of its identities (`IdentitySuspension`), keyed by the identity
    /// whether or not an account holds it (contract v4, "Google's security events").
    static func suspension(_ provider: IdentityProvider, _ providerID: String) -> String {
        "\(suspensionsPrefix(provider))\(providerID).json"
    }

    static func suspensionsPrefix(_ provider: IdentityProvider) -> String { "suspensions/\(provider.rawValue)/" }

    /// Marker that one of Apple's notifications was processed (at most once each).
    static func notificationMarker(_ kind: String, _ id: String) -> String { "notifications/\(kind)/\(id)" }

    /// Zero-byte `application/x-directory` markers made at sign-up.
    static func markers(_ uuid: String) -> [String] {
        let p = userPrefix(uuid)
        return [p, p + "photos/", p + "thumbnails/", p + "metadata/", p + "account/"]
    }

    /// User metadata of an identity file: the link id it was created with (see `ProvidersDocument`).
    static let linkIDMetadata = "link-id"

    /// A session id or link id as this service makes them: 32 lowercase hex characters.
    package static func isHexID(_ s: String) -> Bool { s.utf8.count == 32 && s.utf8.allSatisfy(ASCII.isLowerHex) }

    /// The providerID rule (`PlatformSupport.ProviderSubject`), which the verifier applies to
    /// every `sub` it accepts, so a verified subject is always a safe key segment here.
    static func isValidProviderID(_ s: String) -> Bool { ProviderSubject.isValid(s) }
}
