import AppStoreSignedData
import PlatformSupport
import Testing

@testable import AuthService

/// APPSTORE_* (docs/API.md, "Configuration"): purchases are off without a bundle id; every rule
/// refuses at start-up naming the variable, never the value.
@Suite struct PurchaseConfigurationTests {
    let base = ServiceConfigurationTests()
    let on: [String: String?] = [
        "APPSTORE_BUNDLE_ID": "com.example.photos",
        "APPSTORE_PRODUCTS": "com.example.photos.premium.monthly=premium:1099511627776",
    ]

    @Test func offUnlessABundleIDIsSet() throws {
        #expect(try base.configuration().purchases == nil)
        let c = try #require(try base.configuration(on).purchases)
        #expect(c.verifier.bundleID == "com.example.photos" && c.verifier.environments == [.production])
        #expect(c.verifier.roots.count == 1, "Apple Root CA - G3 by default")
        #expect(c.products.product("com.example.photos.premium.monthly")?.tier == "premium")
        let both = try #require(
            try base.configuration(on.merging(["APPSTORE_ENVIRONMENTS": "Production, Sandbox"]) { $1 }).purchases)
        #expect(both.verifier.environments == [.production, .sandbox])
    }

    @Test func everyRuleRefuses() {
        let cases: [(String, String?)] = [
            ("APPSTORE_BUNDLE_ID", "com example"), ("APPSTORE_ENVIRONMENTS", "Xcode"),
            ("APPSTORE_ENVIRONMENTS", "LocalTesting"), ("APPSTORE_ENVIRONMENTS", "Staging"),
            ("APPSTORE_APP_APPLE_ID", "abc"), ("APPSTORE_APP_APPLE_ID", "-1"), ("APPSTORE_PRODUCTS", nil),
            ("APPSTORE_PRODUCTS", "com.example=premium"), ("APPSTORE_ROOT_CERTS", "not a pem"),
        ]
        for (variable, value) in cases {
            let error = base.failure(on.merging([variable: value]) { $1 })
            #expect(error?.variable == variable, "\(variable)")
            if let value { #expect(error?.description.contains(value) != true, "\(variable) echoed its value") }
        }
    }

    /// The App Store Server API is off without its key id and issuer; a PEM that is no key stops
    /// the start (not the first claim), naming the variable, never the PEM.
    @Test func theAppStoreServerAPIIsOptionalAndItsKeyIsCheckedAtStart() throws {
        #expect(try base.configuration(on).purchases?.api == nil)
        let api: [String: String?] = [
            "APPSTORE_API_KEY_ID": "2X9R4HXF34", "APPSTORE_API_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a",
        ]
        let parameter = on.merging(api) { $1 }.merging(["APPSTORE_API_PRIVATE_KEY_PARAMETER": "/signin/iap-key"]) { $1 }
        let source = try base.configuration(parameter).purchases?.api.map { "\($0.keySource)" }
        #expect(source == "parameter(/signin/iap-key)")
        let broken = "-----BEGIN PRIVATE KEY-----\nSECRET\n-----END PRIVATE KEY-----\n"
        let error = base.failure(on.merging(api) { $1 }.merging(["APPSTORE_API_PRIVATE_KEY": broken]) { $1 })
        #expect(error?.variable == "APPSTORE_API_PRIVATE_KEY" && error?.description.contains("SECRET") == false)
    }
}
