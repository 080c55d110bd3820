import CryptoPrimitives

/// What `AppStoreSignedDataVerifier` accepts: the app (bundle id, and in notifications its Apple
/// ID), the environments, and the trusted roots (Apple Root CA - G3 unless replaced).
public struct AppStoreVerifierConfiguration: Sendable {
    public var bundleID: String
    /// `Xcode` and `LocalTesting` here have no effect: they are always refused.
    public var environments: Set<AppStoreEnvironment>
    /// When set, a Production notification must carry this `appAppleId` (Apple's own rule; sandbox
    /// notifications carry none), and one that carries another is refused in any environment.
    public var appAppleID: Int64?
    /// The trust anchors; a configured PEM bundle replaces the default (it is not added to it).
    public var roots: [X509Certificate]

    public init(
        bundleID: String, environments: Set<AppStoreEnvironment> = [.production], appAppleID: Int64? = nil,
        roots: [X509Certificate] = AppleRootCertificates.defaultRoots
    ) {
        self.bundleID = bundleID
        self.environments = environments
        self.appAppleID = appAppleID
        self.roots = roots
    }
}
