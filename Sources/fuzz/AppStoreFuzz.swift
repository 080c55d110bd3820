import AppStoreServerAPI
import AppStoreSignedData
import CryptoPrimitives
import StrictJSON

/// AppStoreSignedData: signed transactions, renewal info and notifications verified against the
/// App Store-shaped test PKI's root (signin_tools/standins/appstore_pki.py; the seeds were signed
/// by one run of it, whose keys were never written down), with no chain cache so that every input
/// walks the same path; and the typed payload readers on any JSON object, since a mutated JWS
/// rarely keeps a valid signature. A transaction that verifies is this app's and in an accepted
/// environment; an `appAccountToken` is a lowercase UUID.
enum AppStoreFuzz {
    /// The test PKI's root (a public certificate: test keys only, no secret).
    static let testRootPEM = """
        -----BEGIN CERTIFICATE-----
        MIICETCCAZegAwIBAgIUOg5b+upsrz5j4u+wHdYHiCg5NM0wCgYIKoZIzj0EAwMw
        SDEaMBgGA1UEAwwRVGVzdCBSb290IENBIC0gRzMxHTAbBgNVBAoMFHNpZ25pbi1i
        YWNrZW5kIHRlc3RzMQswCQYDVQQGEwJVUzAeFw0xNjExMjUxMTMwMTBaFw0zNjEx
        MjAxMTMwMTBaMEgxGjAYBgNVBAMMEVRlc3QgUm9vdCBDQSAtIEczMR0wGwYDVQQK
        DBRzaWduaW4tYmFja2VuZCB0ZXN0czELMAkGA1UEBhMCVVMwdjAQBgcqhkjOPQIB
        BgUrgQQAIgNiAASi9e6gJUI8PXBF7n8bVEOrZILIEQ6+DZHzl+GVg6zxll5Bl+Yk
        Z4KS0G5GBRE9sy34RF2feHs6Y7UivVJ1pPXWlXzY9Lpl5CXpJR5LOMRVK4Stg/Aa
        07mQlLBuMuvPpjKjQjBAMB0GA1UdDgQWBBQzgd2hAhz1Hw3wNYsTNgNYgSvtCDAP
        BgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAKBggqhkjOPQQDAwNoADBl
        AjEAuDC2mDceFU+iS+zTUAYb2C9EngYIZEV0bMUUm5Ba0Sm1zYqwCLUFUchm9N6b
        oj4BAjAUHn11D11b9OIv2Wm9bPlso4tc0W4URA4cfwEPiRiPhtZg/ycwWaIaqq4+
        uwoILAI=
        -----END CERTIFICATE-----
        """

    nonisolated(unsafe) static let verifier: AppStoreSignedDataVerifier = {
        let roots = try! X509Certificate.certificates(pem: testRootPEM)
        let configuration = AppStoreVerifierConfiguration(
            bundleID: "com.example.photos", environments: [.production, .sandbox], appAppleID: 1_234_567_890,
            roots: roots)
        return try! AppStoreSignedDataVerifier(configuration: configuration, chainCacheCapacity: 0)
    }()

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let transaction = try? verifier.verifyTransaction(text) {
            require(transaction.bundleId == "com.example.photos", "appstore: a verified transaction is this app's")
            check(transaction)
        }
        _ = try? verifier.verifyRenewalInfo(text)
        if let notification = try? verifier.verifyNotification(text) {
            require(notification.data != nil || notification.summary != nil, "appstore: data or summary")
            if let transaction = notification.data?.transaction { check(transaction) }
        }
        // The App Store Server API's answer: what is read, written back in the same shape, reads the same.
        if let items = try? AppStoreServerAPIClient.statuses(from: bytes) {
            let written: [JSONValue] = items.map { item in
                .object(
                    JSONObject([
                        ("status", item.status.map { .int($0) } ?? .null),
                        ("originalTransactionId", item.originalTransactionId.map { .string($0) } ?? .null),
                        ("signedTransactionInfo", .string(item.signedTransactionInfo)),
                        ("signedRenewalInfo", item.signedRenewalInfo.map { .string($0) } ?? .null),
                    ]))
            }
            let answer: JSONValue = .object(
                JSONObject([("data", .array([.object(JSONObject([("lastTransactions", .array(written))]))]))]))
            let again = try? AppStoreServerAPIClient.statuses(from: answer.serialized())
            require(again == items, "appstore: a status answer round trip")
        }
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return }
        if let transaction = try? AppStoreTransaction(PayloadReader(object: object, context: "transaction")) {
            check(transaction)
        }
        _ = try? AppStoreRenewalInfo(PayloadReader(object: object, context: "renewal info"))
        _ = try? AppStoreNotificationSummary(PayloadReader(object: object, context: "summary"))
    }

    static func check(_ transaction: AppStoreTransaction) {
        require(transaction.purchaseDate >= 0 && transaction.signedDate >= 0, "appstore: dates are not negative")
        if let token = transaction.appAccountToken {
            require(
                token.utf8.count == 36 && !token.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) },
                "appstore: appAccountToken is a lowercase UUID")
        }
    }
}
