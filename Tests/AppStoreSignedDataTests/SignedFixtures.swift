import Foundation
import StrictJSON
import TestSupport

@testable import AppStoreSignedData
@testable import CryptoPrimitives

#if canImport(Glibc)
import Glibc
#endif

/// App Store signed data made by the test PKI (signin_tools/standins/appstore_pki.py, Python
/// `cryptography`): a root, intermediate and leaf of Apple's shape, generated when the tests start
/// (no key is committed), and every case of `SignedFixtures.cases` signed by one run of it.
struct SignedFixtures: Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let bundleID = "com.example.photos"
    static let appAppleID: Int64 = 1_234_567_890

    /// The cases, by name: specs for `AppStorePKI.sign` (its docstring lists the knobs).
    static let cases: JSONValue = [
        "transaction": [:],
        "revoked": ["claims": ["revocationDate": 1_700_000_000_000, "revocationReason": 1]],
        "renewal": ["kind": "renewal", "claims": ["gracePeriodExpiresDate": 1_700_000_000_000]],
        "notification": ["kind": "notification", "transaction": [:], "renewal": ["kind": "renewal"]],
        "notification_bare": ["kind": "notification"],
        "notification_summary": [
            "kind": "notification", "drop": ["data"],
            "claims": [
                "notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY",
                "summary": [
                    "requestIdentifier": "req-1", "environment": "Production", "appAppleId": 1_234_567_890,
                    "bundleId": "com.example.photos", "succeededCount": 5, "failedCount": 2,
                ],
            ],
        ],
        "notification_bad_nested_signature": [
            "kind": "notification", "transaction": ["signature": "flip"], "renewal": ["kind": "renewal"],
        ],
        "notification_bad_nested_chain": [
            "kind": "notification",
            "renewal": ["kind": "renewal", "chain": ["other_leaf", "other_intermediate", "root"]],
        ],
        "notification_nested_other_bundle": [
            "kind": "notification", "transaction": ["claims": ["bundleId": "com.example.other"]],
        ],
        "notification_nested_sandbox": ["kind": "notification", "transaction": ["claims": ["environment": "Sandbox"]]],
        "notification_other_app": ["kind": "notification", "claims": ["data": ["appAppleId": 42]]],
        "notification_without_app_apple_id": ["kind": "notification", "claims": ["data": ["appAppleId": nil]]],
        "notification_sandbox_without_app_apple_id": [
            "kind": "notification", "claims": ["data": ["appAppleId": nil, "environment": "Sandbox"]],
        ],
        "notification_other_bundle": ["kind": "notification", "claims": ["data": ["bundleId": "com.example.other"]]],
        "notification_neither": ["kind": "notification", "drop": ["data"]],
        "notification_rescind_consent": [
            "kind": "notification", "claims": ["notificationType": "RESCIND_CONSENT"], "app_data": [:],
            "app_transaction": ["kind": "app_transaction"],
        ],
        "notification_app_data_other_bundle": [
            "kind": "notification", "app_data": ["bundleId": "com.example.other"],
        ],
        "notification_app_transaction_other_bundle": [
            "kind": "notification", "app_data": [:],
            "app_transaction": ["kind": "app_transaction", "claims": ["bundleId": "com.example.other"]],
        ],
        "notification_app_transaction_bad_signature": [
            "kind": "notification", "app_data": [:],
            "app_transaction": ["kind": "app_transaction", "signature": "flip"],
        ],
        "notification_external_purchase_token": [
            "kind": "notification", "drop": ["data"],
            "claims": [
                "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
                "externalPurchaseToken": [
                    "externalPurchaseId": "b2158121-7af9-49d4-9561-1f588205523e",
                    "tokenCreationDate": 1_698_148_950_000,
                    "appAppleId": 1_234_567_890, "bundleId": "com.example.photos",
                ],
            ],
        ],
        "notification_external_purchase_token_sandbox": [
            "kind": "notification", "drop": ["data"],
            "claims": [
                "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
                "externalPurchaseToken": [
                    "externalPurchaseId": "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
                    "tokenCreationDate": 1_698_148_950_000,
                    "appAppleId": 1_234_567_890, "bundleId": "com.example.photos",
                ],
            ],
        ],
        "family_revoked": [
            "claims": [
                "inAppOwnershipType": "FAMILY_SHARED", "revocationDate": 1_700_000_000_000, "revocationReason": 0,
                "revocationType": "FAMILY_REVOKE",
            ]
        ],
        "other_root": ["chain": ["other_leaf", "other_intermediate", "other_root"]],
        "other_x5c_root": ["chain": ["leaf", "intermediate", "other_root"]],
        "leaf_without_oid": ["chain": ["leaf_without_oid", "intermediate", "root"]],
        "intermediate_without_oid": [
            "chain": ["leaf_under_intermediate_without_oid", "intermediate_without_oid", "root"]
        ],
        "swapped": ["chain": ["intermediate", "leaf", "root"], "signer": "leaf"],
        "chain_of_two": ["chain": ["leaf", "intermediate"]],
        "chain_of_four": ["chain": ["leaf_under_sub_intermediate", "sub_intermediate", "intermediate", "root"]],
        "leaf_by_root": ["chain": ["leaf_by_root", "intermediate", "root"]],
        "expired": ["chain": ["leaf_expired", "intermediate", "root"]],
        "expired_now_but_valid_when_signed": [
            "chain": ["leaf_expired", "intermediate", "root"], "signed_days_ago": 10,
        ],
        "signed_before_the_leaf_was_valid": ["signed_days_ago": 400],
        "not_yet_valid": ["chain": ["leaf_not_yet_valid", "intermediate", "root"]],
        "leaf_p384": ["chain": ["leaf_p384", "intermediate", "root"]],
        "der_signature": ["signature": "der"],
        "flipped_signature": ["signature": "flip"],
        "other_signer": ["signer": "other_leaf"],
        "alg_none": ["alg": "none"],
        "alg_none_unsigned": ["alg": "none", "signature": "none"],
        "alg_hs256": ["alg": "HS256"],
        "alg_rs256": ["alg": "RS256"],
        "alg_es384": ["alg": "ES384"],
        "alg_missing": ["alg": nil],
        "x5c_url": ["x5c_encoding": "url"],
        "x5c_missing": ["header": ["x5c": nil]],
        "x5c_not_certificates": ["header": ["x5c": ["AAAA", "AAAA", "AAAA"]]],
        "jku": ["header": ["jku": "https://example.com/keys"]],
        "wrong_bundle": ["claims": ["bundleId": "com.example.other"]],
        "xcode": ["claims": ["environment": "Xcode"]],
        "local_testing": ["claims": ["environment": "LocalTesting"]],
        "sandbox": ["claims": ["environment": "Sandbox"]],
        "unknown_environment": ["claims": ["environment": "Staging"]],
        "missing_signed_date": ["drop": ["signedDate"]],
        "negative_signed_date": ["claims": ["signedDate": -1]],
        "string_expires_date": ["claims": ["expiresDate": "soon"]],
        "missing_transaction_id": ["drop": ["transactionId"]],
        "bad_app_account_token": ["claims": ["appAccountToken": "not-a-uuid"]],
        "uppercase_app_account_token": ["claims": ["appAccountToken": "7E3FB20B-4CDB-47CC-936D-99D65F608138"]],
        "no_app_account_token": ["drop": ["appAccountToken"]],
        "unknown_member": ["claims": ["someFutureField": ["nested": true]]],
        "duplicate_member": [
            "payload_json": #"{"bundleId":"com.example.photos","bundleId":"com.example.other","signedDate":1}"#
        ],
        "payload_not_object": ["payload_json": "[1,2,3]"],
    ]

    /// Made on first use; a failure (no venv, Python error) fails every test that needs it.
    static let shared: Result<SignedFixtures, Failure> = {
        do { return .success(try SignedFixtures()) } catch let failure as Failure { return .failure(failure) } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    static func get() throws -> SignedFixtures { try shared.get() }

    /// The time the PKI was made around (seconds); every default payload's `signedDate` is now × 1000.
    let now: Int64
    let rootPEM: String
    let otherRootPEM: String
    private let signed: [String: String]

    private init() throws {
        let output = try Self.runPython(["-m", "signin_tools.standins.appstore_pki", "sign", Self.casesText])
        let json = try JSONParser.parse(Array(output.utf8))
        guard let now = json["now"]?.int64Value, let rootPEM = json["root_pem"]?.stringValue,
            let otherRootPEM = json["other_root_pem"]?.stringValue, let signed = json["signed"]?.objectValue
        else { throw Failure(description: "appstore_pki printed an unexpected shape") }
        self.now = now
        self.rootPEM = rootPEM
        self.otherRootPEM = otherRootPEM
        var all: [String: String] = [:]
        for (name, value) in signed { all[name] = value.stringValue }
        self.signed = all
    }

    static var casesText: String { String(decoding: cases.serialized(), as: UTF8.self) }

    subscript(name: String) -> String { signed[name]! }

    /// A verifier for the test app whose only root is the test PKI's (or `rootPEM`).
    func verifier(
        environments: Set<AppStoreEnvironment> = [.production], appAppleID: Int64? = SignedFixtures.appAppleID,
        rootPEM: String? = nil
    ) throws -> AppStoreSignedDataVerifier {
        try AppStoreSignedDataVerifier(
            configuration: AppStoreVerifierConfiguration(
                bundleID: Self.bundleID, environments: environments, appAppleID: appAppleID,
                roots: X509Certificate.certificates(pem: rootPEM ?? self.rootPEM)))
    }

    /// The venv's Python in the repository root; killed after `timeoutSeconds`.
    static func runPython(_ arguments: [String], timeoutSeconds: Int = 120) throws -> String {
        try PythonCryptography.python(arguments, timeoutSeconds: timeoutSeconds)
    }
}
