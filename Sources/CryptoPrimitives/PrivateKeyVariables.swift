/// The pair of variables that configure one private key (`PrivateKeySource`): `pem` holds the
/// PEM itself, `parameter` (`pem` + `_PARAMETER`) the name of an SSM parameter holding it.
package protocol PrivateKeyVariables: Sendable {
    /// e.g. `APPLE_PRIVATE_KEY`.
    static var pem: String { get }
}

extension PrivateKeyVariables {
    /// e.g. `APPLE_PRIVATE_KEY_PARAMETER`.
    package static var parameter: String { pem + "_PARAMETER" }
}
