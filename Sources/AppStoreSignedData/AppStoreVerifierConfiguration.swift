import CryptoPrimitives

/// What `AppStoreSignedDataVerifier` accepts: the app (bundle id, and in notifications its Apple
/// ID), the environments, and the trusted roots (Apple Root CA - G3 unless replaced).
package struct AppStoreVerifierConfiguration: Sendable {
    package var bundleID: String
    /// `Xcode` and `LocalTesting` here have no effect: they are always refused.
    package var environments: Set<AppStoreEnvironment>
    /// When set, a Production notification must carry this `appAppleId` (Apple's own rule; sandbox
    /// notifications carry none), and one that carries another is refused in any environment.
    package var appAppleID: Int64?
    /// The trust anchors; a configured PEM bundle replaces the default (it is not added to it).
    package var roots: [X509Certificate]

    package init(
        bundleID: String, environments: Set<AppStoreEnvironment> = [.production], appAppleID: Int64? = nil,
        roots: [X509Certificate] = AppleRootCertificates.defaultRoots
    ) {
        self.bundleID = bundleID
        self.environments = environments
        self.appAppleID = appAppleID
        self.roots = roots
    }
}
