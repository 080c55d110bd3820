import CryptoPrimitives
import PlatformSupport

/// The App Store Server API (contract v3, optional): the In-App Purchase key and issuer that sign
/// requests, the app's bundle id (`bid`), and where Apple's hosts are. `nil` from
/// `from(environment:bundleID:)` means the API is off. Errors name the variable and the rule,
/// never the value; the key's PEM never shows (`AppStoreServerAPIKeySource` redacts it).
package struct AppStoreServerAPISettings: Sendable, Equatable {
    /// The hosts Apple recommends since 2026-05 (the `…itunes.apple.com` ones still answer; docs/decisions/purchases.md).
    package static let productionURL = "https://api.storekit.apple.com"
    package static let sandboxURL = "https://api.storekit-sandbox.apple.com"

    /// `kid` of the request token: the key's id in App Store Connect.
    package let keyID: String
    /// `iss`: the issuer id of the team's keys in App Store Connect (a UUID).
    package let issuerID: String
    /// `bid`: the app's bundle id (`APPSTORE_BUNDLE_ID`).
    package let bundleID: String
    /// `APPSTORE_API_URL`: one base for both environments (tests); nil: Apple's host by environment.
    package let baseURL: String?
    package let keySource: AppStoreServerAPIKeySource

    package init(
        keyID: String, issuerID: String, bundleID: String, baseURL: String?, keySource: AppStoreServerAPIKeySource
    ) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.baseURL = baseURL
        self.keySource = keySource
    }

    /// The base URL for a transaction of `environment` (`Production` or `Sandbox`).
    package func base(sandbox: Bool) -> String { baseURL ?? (sandbox ? Self.sandboxURL : Self.productionURL) }

    /// `APPSTORE_API_KEY_ID` and `APPSTORE_API_ISSUER_ID` (both unset or empty: off; one alone is
    /// an error), exactly one of `APPSTORE_API_PRIVATE_KEY` / `APPSTORE_API_PRIVATE_KEY_PARAMETER`,
    /// and `APPSTORE_API_URL` (https, or http to a loopback host; no query or fragment).
    package static func from(
        environment get: (String) -> String?, bundleID: String
    ) throws(ConfigurationError) -> AppStoreServerAPISettings? {
        func value(_ name: String) -> String? {
            guard let v = get(name), !v.isEmpty else { return nil }
            return v
        }
        func refuse(_ variable: String, _ message: String) -> ConfigurationError {
            ConfigurationError(variable: variable, message: message)
        }
        let keyID = value("APPSTORE_API_KEY_ID"), issuer = value("APPSTORE_API_ISSUER_ID")
        guard keyID != nil || issuer != nil else { return nil }
        guard let keyID else {
            throw refuse("APPSTORE_API_KEY_ID", "is not set, but APPSTORE_API_ISSUER_ID is (set both or neither)")
        }
        guard let issuer else {
            throw refuse("APPSTORE_API_ISSUER_ID", "is not set, but APPSTORE_API_KEY_ID is (set both or neither)")
        }
        guard keyID.utf8.count == 10, keyID.utf8.allSatisfy({ ASCII.isDigit($0) || (0x41...0x5A).contains($0) })
        else { throw refuse("APPSTORE_API_KEY_ID", "must be 10 characters of A-Z and 0-9") }
        guard isIssuerID(issuer) else {
            throw refuse("APPSTORE_API_ISSUER_ID", "must be the issuer id App Store Connect shows (a UUID)")
        }
        let source = try AppStoreServerAPIKeySource.from(environment: value, requiredWhenSet: "APPSTORE_API_KEY_ID")
        var base: String?
        if let text = value("APPSTORE_API_URL") {
            let url = try HTTPURL.httpsOrLoopback(text, variable: "APPSTORE_API_URL", allowingQueryAndFragment: false)
            var path = Substring(url.path)
            while path.hasSuffix("/") { path = path.dropLast() }
            base = url.scheme + "://" + url.host + (url.port.map { ":" + String($0) } ?? "") + path
        }
        return AppStoreServerAPISettings(
            keyID: keyID, issuerID: issuer, bundleID: bundleID, baseURL: base, keySource: source)
    }

    /// 8-4-4-4-12 hexadecimal digits.
    static func isIssuerID(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard c == UInt8(ascii: "-") else { return false }
            } else if !ASCII.isLowerHex(c | 0x20) {
                return false
            }
        }
        return true
    }
}
