import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON
import TestSupport
import Testing

@testable import AppStoreServerAPI

/// The request token as Apple's "Generating JSON Web Tokens for API requests" defines it, the
/// answer's shape (Get All Subscription Statuses' `StatusResponse`) and what each HTTP status
/// means. The end-to-end check, by a stand-in that verifies the token as Apple does, is
/// Tests/integration/test_purchase_state.py.
struct AppStoreServerAPIClientTests {
    static let makeKey = """
        from cryptography.hazmat.primitives import serialization as s
        from cryptography.hazmat.primitives.asymmetric import ec
        key = ec.generate_private_key(ec.SECP256R1())
        print(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()).decode(), end="")
        """
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    static func settings(pem: String, url: String? = nil) -> AppStoreServerAPISettings {
        AppStoreServerAPISettings(
            keyID: "2X9R4HXF34", issuerID: issuer, bundleID: "com.example.photos", baseURL: url, keySource: .pem(pem))
    }

    @Test func theTokenHasApplesHeaderAndClaimsAndVerifies() throws {
        let pem = try PythonCryptography.run(Self.makeKey)
        let key = try P256PrivateKey(pem: pem)
        let jwt = AppStoreServerAPIToken.make(settings: Self.settings(pem: pem), key: key, now: 1_763_900_000)
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let decoded = try parts.map { try #require(Base64.urlDecode($0)) }
        let header = try JSONParser.parse(decoded[0]), claims = try JSONParser.parse(decoded[1])
        #expect(header == .object(JSONObject([("alg", "ES256"), ("kid", "2X9R4HXF34"), ("typ", "JWT")])))
        #expect(claims["iss"] == .string(Self.issuer) && claims["aud"] == "appstoreconnect-v1")
        #expect(claims["bid"] == "com.example.photos" && claims["iat"] == .int(Int64(1_763_900_000)))
        let lifetime = (claims["exp"]?.int64Value ?? 0) - 1_763_900_000
        #expect(lifetime > 0 && lifetime <= 3600, "Apple refuses exp more than 60 minutes after iat")
        let publicKey = try P256PublicKey(subjectPublicKeyInfo: key.publicKey.subjectPublicKeyInfo)
        #expect(publicKey.verify(signature: decoded[2], message: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func theAnswerIsReadAsAppleDocumentsIt() throws {
        let body = """
            {"environment":"Production","bundleId":"com.example.photos","appAppleId":1234567890,"data":[
             {"subscriptionGroupIdentifier":"21000001","lastTransactions":[
              {"status":5,"originalTransactionId":"2000000100000001","signedTransactionInfo":"a.b.c",
               "signedRenewalInfo":"d.e.f"},
              {"status":1,"originalTransactionId":"2000000100000002","signedTransactionInfo":"g.h.i"}]},
             {"subscriptionGroupIdentifier":"21000002","lastTransactions":[],"newField":true}]}
            """
        let items = try AppStoreServerAPIClient.statuses(from: Array(body.utf8))
        #expect(
            items == [
                AppStoreSubscriptionStatus(
                    status: 5, originalTransactionId: "2000000100000001", signedTransactionInfo: "a.b.c",
                    signedRenewalInfo: "d.e.f"),
                AppStoreSubscriptionStatus(
                    status: 1, originalTransactionId: "2000000100000002", signedTransactionInfo: "g.h.i",
                    signedRenewalInfo: nil),
            ])
        for bad in [
            "", "[]", "{}", #"{"data":{}}"#, #"{"data":[{}]}"#, #"{"data":[{"lastTransactions":[{"status":1}]}]}"#,
            #"{"data":[{"lastTransactions":[{"status":"1","signedTransactionInfo":"a"}]}]}"#,
            #"{"data":[{"lastTransactions":[{"signedTransactionInfo":"a","signedRenewalInfo":7}]}]}"#,
        ] {
            #expect(throws: AppStoreServerAPIError.malformedAnswer, "\(bad)") {
                try AppStoreServerAPIClient.statuses(from: Array(bad.utf8))
            }
        }
    }

    @Test func eachStatusMeansWhatAppleSays() {
        func verdict(_ status: Int) -> String {
            switch AppStoreServerAPIClient.verdict(.success(HTTPResponse(status: status))) {
            case .retry(let e): return "retry \(e)"
            case .final(.success): return "ok"
            case .final(.failure(let e)): return "\(e)"
            }
        }
        #expect(verdict(200) == "ok" && verdict(401) == "unauthorized" && verdict(404) == "rejected(404)")
        #expect(verdict(429) == "retry unavailable" && verdict(503) == "retry unavailable")
        #expect(verdict(501) == "unavailable" && verdict(302) == "malformed")
    }

    @Test func theConfigurationIsCheckedAndTheKeyNeverShows() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\nSECRET\n-----END PRIVATE KEY-----\n"
        func parse(_ env: [String: String]) throws(ConfigurationError) -> AppStoreServerAPISettings? {
            try AppStoreServerAPISettings.from(environment: { env[$0] }, bundleID: "com.example.photos")
        }
        #expect(try parse([:]) == nil)
        #expect(try parse(["APPSTORE_API_KEY_ID": "", "APPSTORE_API_ISSUER_ID": ""]) == nil)
        let good = ["APPSTORE_API_KEY_ID": "2X9R4HXF34", "APPSTORE_API_ISSUER_ID": Self.issuer]
        let settings = try #require(try parse(good.merging(["APPSTORE_API_PRIVATE_KEY": pem]) { $1 }))
        #expect(settings.base(sandbox: false) == "https://api.storekit.apple.com")
        #expect(settings.base(sandbox: true) == "https://api.storekit-sandbox.apple.com")
        #expect(!"\(settings)".contains("SECRET") && !String(reflecting: settings).contains("SECRET"))
        let local = try parse(
            good.merging([
                "APPSTORE_API_PRIVATE_KEY_PARAMETER": "/signin/iap-key", "APPSTORE_API_URL": "http://127.0.0.1:9/",
            ]) {
                $1
            })
        #expect(
            local?.base(sandbox: true) == "http://127.0.0.1:9"
                && local?.keySource == .parameter(name: "/signin/iap-key"))
        let refused: [([String: String], String)] = [
            (["APPSTORE_API_KEY_ID": "2X9R4HXF34"], "APPSTORE_API_ISSUER_ID"),
            (["APPSTORE_API_ISSUER_ID": Self.issuer], "APPSTORE_API_KEY_ID"),
            (good, "APPSTORE_API_PRIVATE_KEY"),
            (
                good.merging(["APPSTORE_API_PRIVATE_KEY": pem, "APPSTORE_API_PRIVATE_KEY_PARAMETER": "p"]) { $1 },
                "APPSTORE_API_PRIVATE_KEY"
            ),
            (
                good.merging(["APPSTORE_API_KEY_ID": "short", "APPSTORE_API_PRIVATE_KEY": pem]) { $1 },
                "APPSTORE_API_KEY_ID"
            ),
            (
                good.merging(["APPSTORE_API_ISSUER_ID": "not-a-uuid", "APPSTORE_API_PRIVATE_KEY": pem]) { $1 },
                "APPSTORE_API_ISSUER_ID"
            ),
            (
                good.merging(["APPSTORE_API_PRIVATE_KEY": pem, "APPSTORE_API_URL": "http://example.com"]) { $1 },
                "APPSTORE_API_URL"
            ),
        ]
        for (env, variable) in refused {
            do throws(ConfigurationError) {
                _ = try parse(env)
                Issue.record("accepted: \(variable)")
            } catch {
                #expect(error.variable == variable && !error.description.contains("SECRET"))
            }
        }
    }
}
