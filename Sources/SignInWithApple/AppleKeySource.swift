import CryptoPrimitives

/// Where the Sign in with Apple key (the `.p8` that signs `client_secret`) comes from: the PEM
/// itself (`APPLE_PRIVATE_KEY`), or the name of an SSM SecureString parameter holding it
/// (`APPLE_PRIVATE_KEY_PARAMETER`), which the caller reads once at init. Redacted as every
/// `PrivateKeySource` is.
package typealias AppleKeySource = PrivateKeySource<AppleKeyVariables>

/// `APPLE_PRIVATE_KEY` / `APPLE_PRIVATE_KEY_PARAMETER`.
package enum AppleKeyVariables: PrivateKeyVariables {
    package static let pem = "APPLE_PRIVATE_KEY"
}
