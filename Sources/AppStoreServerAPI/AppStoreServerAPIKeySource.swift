import CryptoPrimitives

/// Where the In-App Purchase key that signs App Store Server API requests comes from: the PEM
/// itself (`APPSTORE_API_PRIVATE_KEY`), or the name of an SSM SecureString parameter holding it
/// (`APPSTORE_API_PRIVATE_KEY_PARAMETER`), read by the first claim that needs it. Redacted as
/// every `PrivateKeySource` is.
package typealias AppStoreServerAPIKeySource = PrivateKeySource<AppStoreServerAPIKeyVariables>

/// `APPSTORE_API_PRIVATE_KEY` / `APPSTORE_API_PRIVATE_KEY_PARAMETER`.
package enum AppStoreServerAPIKeyVariables: PrivateKeyVariables {
    package static let pem = "APPSTORE_API_PRIVATE_KEY"
}
