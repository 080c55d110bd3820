import Testing

@testable import AppStoreSignedData

struct AppStoreTransactionTests {
    @Test func decodesEveryMember() throws {
        let f = try SignedFixtures.get()
        let t = try f.verifier().verifyTransaction(f["transaction"])
        let ms = f.now * 1000
        #expect(t.transactionId == "2000000123456789" && t.originalTransactionId == "2000000100000001")
        #expect(t.webOrderLineItemId == "2000000012345678" && t.subscriptionGroupIdentifier == "21000001")
        #expect(t.productId == "com.example.photos.premium.monthly")
        #expect(t.purchaseDate == ms - 86_400_000 && t.originalPurchaseDate == ms - 40 * 86_400_000)
        #expect(t.expiresDate == ms + 29 * 86_400_000)
        #expect(t.quantity == 1 && t.type == "Auto-Renewable Subscription" && t.inAppOwnershipType == "PURCHASED")
        #expect(t.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(t.transactionReason == "RENEWAL" && t.storefront == "USA" && t.currency == "USD" && t.price == 9990)
        #expect(t.revocationDate == nil && t.revocationReason == nil && t.isUpgraded == nil)
    }

    @Test func decodesARevokedTransaction() throws {
        let f = try SignedFixtures.get()
        let t = try f.verifier().verifyTransaction(f["revoked"])
        #expect(t.isRevoked)
        #expect(t.revocationDate == 1_700_000_000_000 && t.revocationReason == 1)
    }

    @Test func decodesAFamilyMembersRevocation() throws {
        let f = try SignedFixtures.get()
        let t = try f.verifier().verifyTransaction(f["family_revoked"])
        #expect(t.isRevoked && t.isFamilyShared && t.revocationType == "FAMILY_REVOKE" && t.revocationReason == 0)
        #expect(try !f.verifier().verifyTransaction(f["transaction"]).isFamilyShared)
    }

    @Test func readsAppAccountTokenAsAUUID() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        #expect(
            try v.verifyTransaction(f["uppercase_app_account_token"]).appAccountToken
                == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(try v.verifyTransaction(f["no_app_account_token"]).appAccountToken == nil)
        #expect(v.transactionRefusal(f["bad_app_account_token"])?.kind == .payload)
    }

    @Test func refusesMissingOrMistypedMembersAndIgnoresUnknownOnes() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        for name in ["missing_signed_date", "negative_signed_date", "string_expires_date", "missing_transaction_id"] {
            #expect(v.transactionRefusal(f[name])?.kind == .payload, "\(name)")
        }
        #expect(v.transactionRefusal(f["missing_transaction_id"])?.message == "transaction has no transactionId")
        #expect(
            v.transactionRefusal(f["string_expires_date"])?.message
                == "transaction member expiresDate is not an integer")
        #expect(v.transactionRefusal(f["unknown_member"]) == nil)
        #expect(v.transactionRefusal(f["duplicate_member"])?.message == "payload has a duplicate member")
        #expect(v.transactionRefusal(f["payload_not_object"])?.message == "payload is not a JSON object")
    }
}
