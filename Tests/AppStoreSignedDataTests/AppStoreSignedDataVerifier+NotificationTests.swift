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
        #expect(try f.verifier().notificationRefusal(f["notification_neither"])?.kind == .payload)
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
