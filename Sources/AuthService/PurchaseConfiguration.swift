import AccountModel
import AccountStore
import AppStoreServerAPI
import AppStoreSignedData
import CryptoPrimitives
import PlatformSupport
import PurchaseModel

/// The `APPSTORE_*` configuration (docs/API.md, "Configuration"): purchases are on when
/// `APPSTORE_BUNDLE_ID` is set. Validated at start-up like everything else; errors name the
/// variable and the rule, never the value.
package struct PurchaseConfiguration: Sendable {
    package var verifier: AppStoreVerifierConfiguration
    package var products: ProductCatalog
    /// The App Store Server API, asked by each claim; nil when off (no `APPSTORE_API_KEY_ID`).
    package var api: AppStoreServerAPISettings?

    package static func from(environment env: (String) -> String?) throws(ConfigurationError) -> PurchaseConfiguration?
    {
        guard let bundle = env("APPSTORE_BUNDLE_ID") else { return nil }
        guard (1...155).contains(bundle.utf8.count),
            bundle.utf8.allSatisfy({ ASCII.isAlphanumeric($0) || $0 == 0x2E || $0 == 0x2D })
        else {
            throw ConfigurationError(variable: "APPSTORE_BUNDLE_ID", message: "must be a bundle id (A-Z a-z 0-9 . -)")
        }
        var environments: Set<AppStoreEnvironment> = [.production]
        if let text = env("APPSTORE_ENVIRONMENTS") {
            environments = []
            for name in text.split(separator: ",") {
                let trimmed = String(name).trimmingASCIISpaces()
                guard let e = AppStoreEnvironment(rawValue: trimmed), e.isSignedByApple else {
                    throw ConfigurationError(
                        variable: "APPSTORE_ENVIRONMENTS", message: "must list Production and/or Sandbox")
                }
                environments.insert(e)
            }
            guard !environments.isEmpty else {
                throw ConfigurationError(
                    variable: "APPSTORE_ENVIRONMENTS", message: "must list Production and/or Sandbox")
            }
        }
        var appAppleID: Int64?
        if let text = env("APPSTORE_APP_APPLE_ID") {
            guard let id = Int64(text), id > 0 else {
                throw ConfigurationError(
                    variable: "APPSTORE_APP_APPLE_ID", message: "must be the app's numeric Apple ID")
            }
            appAppleID = id
        }
        guard let productText = env("APPSTORE_PRODUCTS") else {
            throw ConfigurationError(
                variable: "APPSTORE_PRODUCTS", message: "is required when APPSTORE_BUNDLE_ID is set")
        }
        let products: ProductCatalog
        do throws(ProductCatalog.ParseError) { products = try ProductCatalog.parse(productText) } catch {
            throw ConfigurationError(variable: "APPSTORE_PRODUCTS", message: error.rule)
        }
        var roots = AppleRootCertificates.defaultRoots
        if let pem = env("APPSTORE_ROOT_CERTS") {
            do throws(X509Certificate.ParseError) { roots = try X509Certificate.certificates(pem: pem) } catch {
                throw ConfigurationError(
                    variable: "APPSTORE_ROOT_CERTS", message: "must be a PEM bundle of certificates")
            }
            guard !roots.isEmpty else {
                throw ConfigurationError(variable: "APPSTORE_ROOT_CERTS", message: "holds no certificate")
            }
        }
        let api = try AppStoreServerAPISettings.from(environment: env, bundleID: bundle)
        if case .pem(let pem) = api?.keySource {  // a broken key stops the start, not a claim
            do throws(P256PrivateKey.KeyError) { _ = try P256PrivateKey(pem: pem) } catch {
                throw ConfigurationError(
                    variable: "APPSTORE_API_PRIVATE_KEY", message: "does not hold a usable In-App Purchase key")
            }
        }
        return PurchaseConfiguration(
            verifier: AppStoreVerifierConfiguration(
                bundleID: bundle, environments: environments, appAppleID: appAppleID, roots: roots),
            products: products, api: api)
    }
}
