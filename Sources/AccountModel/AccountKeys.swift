import PlatformSupport
import PurchaseModel
import TokenVerification

/// The S3 layout (docs/API.md and the contract it states), in one place.
package enum AccountKeys {
    package static func identity(_ provider: IdentityProvider, _ providerID: String) -> String {
        "identities/\(provider.rawValue)/\(providerID)"
    }

    /// An app transfer's file (contract v4): the UUID of the account whose Apple identity the
    /// transfer moves, named by the user's `transfer_sub` for the recipient team.
    package static func appleTransfer(_ transferSub: String) -> String { appleTransferPrefix + transferSub }
    package static let appleTransferPrefix = "identities/apple-transfer/"
    package static let appleIdentityPrefix = "identities/apple/"

    /// The operator's `apple-transfer prepare` progress toward one recipient team (docs/API.md,
    /// "S3 layout"): where a run that stopped continues.
    package static func transferProgress(_ team: String) -> String { "operator/apple-transfer/\(team).json" }

    package static func userPrefix(_ uuid: String) -> String { "users/\(uuid)/" }
    package static func profile(_ uuid: String) -> String { "users/\(uuid)/account/profile.json" }
    package static func providers(_ uuid: String) -> String { "users/\(uuid)/account/providers.json" }
    package static func sessionsPrefix(_ uuid: String) -> String { "users/\(uuid)/account/sessions/" }
    package static func session(_ uuid: String, _ sessionID: String) -> String {
        sessionsPrefix(uuid) + sessionID + ".json"
    }

    /// An account deletion's record (`DeletionRecord`).
    package static func deletion(_ uuid: String) -> String { "deletions/\(uuid).json" }
    package static let deletionsPrefix = "deletions/"

    /// An App Store purchase's claim: the owning account's UUID (docs/API.md, `claimPurchase`).
    package static func purchaseClaim(_ originalTransactionID: String) -> String {
        "purchases/apple/\(originalTransactionID)"
    }

    /// The newest verified state of an App Store purchase (`PurchaseState`); outlives the account.
    package static func purchaseState(_ originalTransactionID: String) -> String {
        "purchases/apple-state/\(originalTransactionID).json"
    }

    /// Google's suspension of one of its identities (`IdentitySuspension`), keyed by the identity
    /// whether or not an account holds it (contract v4, "Google's security events").
    package static func suspension(_ provider: IdentityProvider, _ providerID: String) -> String {
        "\(suspensionsPrefix(provider))\(providerID).json"
    }

    package static func suspensionsPrefix(_ provider: IdentityProvider) -> String {
        "suspensions/\(provider.rawValue)/"
    }

    /// Marker that one of Apple's notifications was processed (at most once each).
    package static func notificationMarker(_ kind: String, _ id: String) -> String { "notifications/\(kind)/\(id)" }

    /// Zero-byte `application/x-directory` markers made at sign-up.
    package static func markers(_ uuid: String) -> [String] {
        let p = userPrefix(uuid)
        return [p, p + "photos/", p + "thumbnails/", p + "metadata/", p + "account/"]
    }

    /// User metadata of an identity file: the link id it was created with (see `ProvidersDocument`).
    package static let linkIDMetadata = "link-id"
    /// User metadata of a re-key's new identity file: the transfer it came from, so whoever meets
    /// the file before providers.json lists it can finish the re-key (`LinkState.rekeying`).
    package static let transferSubMetadata = "transfer-sub"

    /// A session id or link id as this service makes them: 32 lowercase hex characters.
    package static func isHexID(_ s: String) -> Bool { s.utf8.count == 32 && s.utf8.allSatisfy(ASCII.isLowerHex) }

    /// The providerID rule (`PlatformSupport.ProviderSubject`), which the verifier applies to
    /// every `sub` it accepts, so a verified subject is always a safe key segment here.
    package static func isValidProviderID(_ s: String) -> Bool { ProviderSubject.isValid(s) }
}
