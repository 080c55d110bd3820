import Testing

@testable import AppStoreSignedData
@testable import CryptoPrimitives

struct AppStoreSignedDataVerifierNotificationTests {
    @Test func decodesANotificationWithItsNestedTransactionAndRenewalInfo() throws {
        let f = try SignedFixtures.get()
        let n = try f.verifier().verifyNotification(f["notification"])
        #expect(n.notificationType == "DID_RENEW" && n.subtype == nil && n.version == "2.0")
        #expect(n.notificationUUID.utf8.count == 36 && n.signedDate == f.now * 1000)
        #expect(n.environment == .production && n.summary == nil)
        let data = try #require(n.data)
        #expect(data.bundleId == SignedFixtures.bundleID && data.appAppleId == SignedFixtures.appAppleID)
        #expect(data.bundleVersion == "42" && data.status == 1)
        #expect(data.transaction?.transactionId == "2000000123456789")
        #expect(data.renewalInfo?.originalTransactionId == "2000000100000001")
        // Nested JWSs are optional.
        let bare = try f.verifier().verifyNotification(f["notification_bare"])
        #expect(bare.data?.transaction == nil && bare.data?.renewalInfo == nil)
    }

    @Test func decodesASummaryNotification() throws {
        let f = try SignedFixtures.get()
        let n = try f.verifier().verifyNotification(f["notification_summary"])
        #expect(n.data == nil && n.notificationType == "RENEWAL_EXTENSION" && n.subtype == "SUMMARY")
        let summary = try #require(n.summary)
        #expect(summary.requestIdentifier == "req-1" && summary.succeededCount == 5 && summary.failedCount == 2)
        #expect(n.environment == .production)
    }

    /// Contract v4: a shape this code does not know is verified (signature, chain) and returned,
    /// never refused; RESCIND_CONSENT's `appData` and its nested app transaction are verified.
    @Test func acceptsTheAppDataShapeAndShapesItDoesNotKnow() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        let rescind = try v.verifyNotification(f["notification_rescind_consent"])
        #expect(rescind.notificationType == "RESCIND_CONSENT" && rescind.data == nil && rescind.summary == nil)
        let appData = try #require(rescind.appData)
        #expect(appData.bundleId == SignedFixtures.bundleID && appData.appAppleId == SignedFixtures.appAppleID)
        #expect(appData.appTransaction?.appTransactionId == "704089513299345761")
        #expect(appData.appTransaction?.receiptCreationDate == f.now * 1000 && rescind.environment == .production)
        let neither = try v.verifyNotification(f["notification_neither"])
        #expect(neither.data == nil && neither.summary == nil && neither.appData == nil && neither.environment == nil)
        let token = try v.verifyNotification(f["notification_external_purchase_token"])
        #expect(token.notificationType == "EXTERNAL_PURCHASE_TOKEN" && token.environment == nil)
        // What it carries is still checked.
        #expect(v.notificationRefusal(f["notification_app_data_other_bundle"])?.kind == .bundleID)
        let nested = try #require(v.notificationRefusal(f["notification_app_transaction_other_bundle"]))
        #expect(nested.kind == .bundleID && nested.message.hasPrefix("signedAppTransactionInfo: "))
        #expect(v.notificationRefusal(f["notification_app_transaction_bad_signature"])?.kind == .signature)
        #expect(try f.verifier(rootPEM: f.otherRootPEM).notificationRefusal(f["notification_neither"]) != nil)
    }

    /// Contract v5 (issue 35, defect 9): an external purchase token is checked against the
    /// deployment's environments like every other notification (Apple's library: an
    /// `externalPurchaseId` starting with SANDBOX is the sandbox's).
    @Test func anExternalPurchaseTokenIsCheckedAgainstTheEnvironments() throws {
        let f = try SignedFixtures.get()
        let sandbox = f["notification_external_purchase_token_sandbox"]
        #expect(try f.verifier().notificationRefusal(sandbox)?.kind == .environment)
        let both = try f.verifier(environments: [.production, .sandbox])
        #expect(try both.verifyNotification(sandbox).notificationType == "EXTERNAL_PURCHASE_TOKEN")
        let production = f["notification_external_purchase_token"]
        #expect(try f.verifier(environments: [.sandbox]).notificationRefusal(production)?.kind == .environment)
    }

    @Test func refusesABadNestedJWS() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier(environments: [.production, .sandbox])
        let signature = try #require(v.notificationRefusal(f["notification_bad_nested_signature"]))
        #expect(signature.kind == .signature && signature.message.hasPrefix("signedTransactionInfo: "))
        let chain = try #require(v.notificationRefusal(f["notification_bad_nested_chain"]))
        #expect(chain.kind == .certificateChain(X509ChainError(.untrustedRoot, at: .intermediate)))
        #expect(chain.message.hasPrefix("signedRenewalInfo: "))
        #expect(v.notificationRefusal(f["notification_nested_other_bundle"])?.kind == .bundleID)
        // Both environments accepted, but a Sandbox transaction inside a Production notification is not.
        #expect(v.notificationRefusal(f["notification_nested_sandbox"])?.kind == .environment)
    }

    @Test func checksTheAppOfTheNotification() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier(environments: [.production, .sandbox])
        #expect(v.notificationRefusal(f["notification_other_bundle"])?.kind == .bundleID)
        #expect(v.notificationRefusal(f["notification_other_app"])?.kind == .appAppleID)
        // Production notifications must name the app; sandbox ones carry no appAppleId.
        #expect(v.notificationRefusal(f["notification_without_app_apple_id"])?.kind == .appAppleID)
        #expect(v.notificationRefusal(f["notification_sandbox_without_app_apple_id"]) == nil)
        // Not configured: not checked.
        let unchecked = try f.verifier(appAppleID: nil)
        #expect(unchecked.notificationRefusal(f["notification_other_app"]) == nil)
        #expect(unchecked.notificationRefusal(f["notification_without_app_apple_id"]) == nil)
        // The notification's environment against the configuration.
        #expect(
            try f.verifier().notificationRefusal(f["notification_sandbox_without_app_apple_id"])?.kind == .environment)
    }

    @Test func verifiesTheOuterJWSAsATransactionIsVerified() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        // A signed transaction is not a notification: it has no notificationType.
        #expect(v.notificationRefusal(f["transaction"])?.message == "notification has no notificationType")
        #expect(
            try f.verifier(rootPEM: f.otherRootPEM).notificationRefusal(f["notification"])?.kind
                == .certificateChain(X509ChainError(.untrustedRoot, at: .intermediate)))
    }
}
