import Testing

@testable import AppStoreSignedData
@testable import CryptoPrimitives

/// Signed transactions and renewal info against the chain, header, signature and configuration
/// rules: the cases of Apple's own library tests (SignedDataVerifier, ChainVerifier) and more.
struct AppStoreSignedDataVerifierTests {
    @Test func acceptsAValidTransaction() throws {
        let f = try SignedFixtures.get()
        let t = try f.verifier().verifyTransaction(f["transaction"])
        #expect(t.bundleId == SignedFixtures.bundleID && t.environment == .production)
        #expect(t.signedDate == f.now * 1000)
        #expect(!t.isRevoked)
    }

    @Test func refusesAChainToAnotherRoot() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        #expect(
            v.transactionRefusal(f["other_root"])?.kind
                == .certificateChain(X509ChainError(.untrustedRoot, at: .intermediate)))
        // x5c[2] is never trusted: naming another root there changes nothing, either way.
        #expect(v.transactionRefusal(f["other_x5c_root"]) == nil)
        #expect(
            try f.verifier(rootPEM: f.otherRootPEM).transactionRefusal(f["transaction"])?.kind
                == .certificateChain(X509ChainError(.untrustedRoot, at: .intermediate)))
        // The compiled-in Apple root does not trust the test PKI.
        let apple = try AppStoreSignedDataVerifier(
            configuration: AppStoreVerifierConfiguration(bundleID: SignedFixtures.bundleID))
        #expect(
            apple.transactionRefusal(f["transaction"])?.kind
                == .certificateChain(X509ChainError(.untrustedRoot, at: .intermediate)))
    }

    @Test func requiresTheOIDs() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        #expect(
            v.transactionRefusal(f["leaf_without_oid"])?.kind
                == .certificateChain(
                    X509ChainError(.missingExtension(oid: AppStoreSignedDataVerifier.leafExtensionOID), at: .leaf)))
        #expect(
            v.transactionRefusal(f["intermediate_without_oid"])?.kind
                == .certificateChain(
                    X509ChainError(
                        .missingExtension(oid: AppStoreSignedDataVerifier.intermediateExtensionOID), at: .intermediate))
        )
    }

    @Test func refusesSwappedShortAndLongChains() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        guard case .certificateChain = v.transactionRefusal(f["swapped"])?.kind else {
            Issue.record("swapped leaf and intermediate accepted or refused for another reason")
            return
        }
        #expect(v.transactionRefusal(f["chain_of_two"])?.kind == .malformed)
        #expect(v.transactionRefusal(f["chain_of_four"])?.kind == .malformed)
        #expect(
            v.transactionRefusal(f["leaf_by_root"])?.kind == .certificateChain(X509ChainError(.wrongChainLength(2))))
    }

    @Test func evaluatesTheChainAtSignedDate() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        #expect(v.transactionRefusal(f["expired"])?.kind == .certificateChain(X509ChainError(.expired, at: .leaf)))
        #expect(
            v.transactionRefusal(f["not_yet_valid"])?.kind == .certificateChain(X509ChainError(.notYetValid, at: .leaf))
        )
    }

    @Test func refusesSignaturesNotByTheLeafOrNotInRawForm() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        for name in ["der_signature", "flipped_signature", "other_signer"] {
            #expect(v.transactionRefusal(f[name])?.kind == .signature, "\(name)")
        }
        // A P-384 leaf cannot make an ES256 signature.
        #expect(v.transactionRefusal(f["leaf_p384"])?.kind == .algorithm)
    }

    @Test func acceptsOnlyES256() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        for name in ["alg_none", "alg_hs256", "alg_rs256", "alg_es384"] {
            #expect(v.transactionRefusal(f[name])?.kind == .algorithm, "\(name)")
        }
        #expect(v.transactionRefusal(f["alg_missing"])?.kind == .malformed)
        #expect(v.transactionRefusal(f["alg_none_unsigned"])?.kind == .malformed)
    }

    @Test func readsX5CStrictly() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier()
        for name in ["x5c_url", "x5c_missing", "x5c_not_certificates", "jku"] {
            #expect(v.transactionRefusal(f[name])?.kind == .malformed, "\(name)")
        }
    }

    @Test func appliesTheEnvironmentAndBundleRules() throws {
        let f = try SignedFixtures.get()
        let production = try f.verifier()
        let both = try f.verifier(environments: [.production, .sandbox])
        let everything = try f.verifier(environments: Set(AppStoreEnvironment.allCases))
        #expect(production.transactionRefusal(f["wrong_bundle"])?.kind == .bundleID)
        #expect(production.transactionRefusal(f["sandbox"])?.kind == .environment)
        #expect(try both.verifyTransaction(f["sandbox"]).environment == .sandbox)
        #expect(try f.verifier(environments: [.sandbox]).transactionRefusal(f["transaction"])?.kind == .environment)
        // Xcode and LocalTesting: refused even when configured (Apple signs neither).
        for name in ["xcode", "local_testing", "unknown_environment"] {
            #expect(everything.transactionRefusal(f[name])?.kind == .environment, "\(name)")
        }
    }

    @Test func decodesRenewalInfo() throws {
        let f = try SignedFixtures.get()
        let r = try f.verifier().verifyRenewalInfo(f["renewal"])
        #expect(r.originalTransactionId == "2000000100000001")
        #expect(r.gracePeriodExpiresDate == 1_700_000_000_000)
        #expect(r.autoRenewStatus == 1 && r.isInBillingRetryPeriod == false)
        #expect(r.environment == .production && r.signedDate == f.now * 1000)
        // A transaction is not renewal info (it has what renewal info needs, so it decodes), and
        // renewal info is not a transaction.
        #expect(try f.verifier().transactionRefusal(f["renewal"])?.kind == .payload)
    }

    @Test func messagesNameTheRuleNotTheData() throws {
        let f = try SignedFixtures.get()
        let v = try f.verifier(environments: [.production, .sandbox])
        let names = ["other_root", "expired", "wrong_bundle", "flipped_signature", "string_expires_date", "alg_hs256"]
        for name in names {
            let text = String(describing: try #require(v.transactionRefusal(f[name])))
            for secret in ["com.example", "2000000", "Test", "soon", "HS256"] {
                #expect(!text.contains(secret), "\(name): \(text)")
            }
        }
    }
}
