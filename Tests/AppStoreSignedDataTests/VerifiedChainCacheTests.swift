import Testing

@testable import AppStoreSignedData
@testable import CryptoPrimitives

/// The cache of verified chains changes speed, never an answer.
struct VerifiedChainCacheTests {
    @Test func remembersAChainAndStillChecksEverythingElse() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        _ = try v.verifyTransaction(f["transaction"])
        _ = try v.verifyTransaction(f["revoked"])
        #expect(v.cachedChainCount == 1)
        // Same leaf, cached chain: the signature and the payload rules still apply.
        #expect(v.transactionRefusal(f["flipped_signature"])?.kind == .signature)
        #expect(v.transactionRefusal(f["wrong_bundle"])?.kind == .bundleID)
    }

    @Test func honoursTheValidityWindowAtEachSignedDate() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        // The expired leaf, accepted for what it signed while valid, is cached...
        _ = try v.verifyTransaction(f["expired_now_but_valid_when_signed"])
        #expect(v.cachedChainCount == 1)
        // ...and refused for what it signed after it expired, with the same reason as uncached.
        #expect(v.transactionRefusal(f["expired"])?.kind == .certificateChain(X509ChainError(.expired, at: .leaf)))
        // A valid leaf cached: a signedDate before its notBefore is still refused.
        _ = try v.verifyTransaction(f["transaction"])
        #expect(
            v.transactionRefusal(f["signed_before_the_leaf_was_valid"])?.kind
                == .certificateChain(X509ChainError(.notYetValid, at: .leaf)))
    }

    @Test func isBoundedAndCanBeOff() throws {
        let f = try SignedFixtures.get()
        let configuration = try f.verifier().configuration
        let one = try AppStoreSignedDataVerifier(configuration: configuration, chainCacheCapacity: 1)
        _ = try one.verifyTransaction(f["transaction"])
        _ = try one.verifyTransaction(f["expired_now_but_valid_when_signed"])
        #expect(one.cachedChainCount == 1)
        #expect(try one.verifyTransaction(f["transaction"]).transactionId == "2000000123456789")
        let off = try AppStoreSignedDataVerifier(configuration: configuration, chainCacheCapacity: 0)
        _ = try off.verifyTransaction(f["transaction"])
        #expect(off.cachedChainCount == 0)
        // A refused chain is never remembered.
        let v = try f.verifier()
        _ = v.transactionRefusal(f["other_root"])
        _ = v.transactionRefusal(f["leaf_without_oid"])
        #expect(v.cachedChainCount == 0)
    }
}
