/// Where the App Store signed something (the payloads' `environment`).
package enum AppStoreEnvironment: String, Sendable, CaseIterable {
    case production = "Production"
    case sandbox = "Sandbox"
    /// StoreKit testing in Xcode: signed by a local certificate, not by Apple. Never accepted.
    case xcode = "Xcode"
    /// Local StoreKit testing: not signed by Apple either. Never accepted.
    case localTesting = "LocalTesting"

    /// Whether Apple signs data of this environment with its App Store chain.
    package var isSignedByApple: Bool { self == .production || self == .sandbox }
}
