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
}
