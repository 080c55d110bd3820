import PlatformSupport
import Testing

@testable import CryptoPrimitives

/// The chain rules, against the Python-made PKI of Apple's shape (TestPKI).
struct X509ChainVerifierTests {
    func verify(
        _ leaf: String, _ intermediate: String, at time: Int64? = nil, rootPEM: String? = nil
    ) throws
        -> X509VerifiedChain
    {
        let pki = try TestPKI.get()
        return try pki.verifier(rootPEM: rootPEM).verify(
            leaf: pki.certificate(leaf), intermediate: pki.certificate(intermediate), at: time ?? pki.now)
    }

    func refusal(
        _ leaf: String, _ intermediate: String, at time: Int64? = nil, rootPEM: String? = nil
    ) throws
        -> X509ChainError?
    {
        do {
            _ = try verify(leaf, intermediate, at: time, rootPEM: rootPEM)
            return nil
        } catch let error as X509ChainError {
            return error
        }
    }

    @Test func acceptsTheChainOfApplesShape() throws {
        let pki = try TestPKI.get()
        let chain = try verify("leaf", "intermediate")
        #expect(chain.leaf.der == pki.der("leaf"))
        #expect(chain.intermediate.der == pki.der("intermediate"))
        #expect(chain.root.der == pki.der("root"))
        // A bundle of several roots: the one that issued the intermediate anchors it.
        let both = try verify("leaf", "intermediate", rootPEM: pki.otherRootPEM + pki.rootPEM)
        #expect(both.root.der == pki.der("root"))
    }

    @Test func refusesAChainToAnotherRoot() throws {
        let pki = try TestPKI.get()
        let untrusted = X509ChainError(.untrustedRoot, at: .intermediate)
        #expect(try refusal("other_leaf", "other_intermediate") == untrusted)
        #expect(try refusal("leaf", "intermediate", rootPEM: pki.otherRootPEM) == untrusted)
        // The intermediate of another root cannot vouch for our leaf.
        #expect(try refusal("leaf", "other_intermediate") == X509ChainError(.untrustedRoot, at: .leaf))
    }

    @Test func neverAcceptsAPartialChain() throws {
        // The intermediate configured as if it were a root: without X509_V_FLAG_PARTIAL_CHAIN a
        // trusted certificate that is not self-signed does not end a chain.
        let pki = try TestPKI.get()
        let intermediatePEM =
            "-----BEGIN CERTIFICATE-----\n\(Base64.encode(pki.der("intermediate")))\n-----END CERTIFICATE-----\n"
        #expect(try refusal("leaf", "intermediate", rootPEM: intermediatePEM)?.reason == .untrustedRoot)
    }

    @Test func requiresTheExtensionOIDs() throws {
        #expect(
            try refusal("leaf_without_oid", "intermediate")
                == X509ChainError(.missingExtension(oid: TestPKI.leafOID), at: .leaf))
        #expect(
            try refusal("leaf_under_intermediate_without_oid", "intermediate_without_oid")
                == X509ChainError(.missingExtension(oid: TestPKI.intermediateOID), at: .intermediate))
    }

    @Test func refusesSwappedLongAndShortChains() throws {
        #expect(try refusal("intermediate", "leaf") != nil)
        // A leaf the root issued directly verifies as a chain of two: refused.
        #expect(try refusal("leaf_by_root", "intermediate") == X509ChainError(.wrongChainLength(2)))
        // A leaf under a second intermediate, given only that one: its issuer is not at hand.
        #expect(try refusal("leaf_under_sub_intermediate", "sub_intermediate")?.reason == .untrustedRoot)
        // A CA:FALSE certificate cannot issue.
        #expect(
            try refusal("leaf_under_not_ca", "intermediate_not_ca")
                == X509ChainError(.notACertificateAuthority, at: .intermediate))
    }

    @Test func evaluatesValidityAtTheGivenTime() throws {
        let pki = try TestPKI.get()
        #expect(try refusal("leaf_expired", "intermediate") == X509ChainError(.expired, at: .leaf))
        #expect(try refusal("leaf_not_yet_valid", "intermediate") == X509ChainError(.notYetValid, at: .leaf))
        // The same certificates at other times: libcrypto's window is notBefore ≤ t < notAfter...
        let (notBefore, notAfter) = pki.window("leaf_expired")
        #expect(try refusal("leaf_expired", "intermediate", at: notBefore) == nil)
        #expect(try refusal("leaf_expired", "intermediate", at: notAfter - 1) == nil)
        #expect(
            try refusal("leaf_expired", "intermediate", at: notBefore - 1) == X509ChainError(.notYetValid, at: .leaf))
        // ...and X509VerifiedChain states the same window.
        let chain = try verify("leaf_expired", "intermediate", at: notBefore)
        #expect(chain.validFrom == notBefore && chain.validUntil == notAfter)
        #expect(chain.isValid(at: notBefore) && chain.isValid(at: notAfter - 1))
        #expect(!chain.isValid(at: notBefore - 1) && !chain.isValid(at: notAfter))
        // The intermediate's window is checked as well (ten years either side of now).
        let (intermediateFrom, _) = pki.window("intermediate")
        #expect(try refusal("leaf", "intermediate", at: intermediateFrom - 1)?.reason == .notYetValid)
    }

    @Test func isStrict() throws {
        // X509_V_FLAG_X509_STRICT: a certificate without an authority key identifier is refused.
        let error = try #require(try refusal("leaf_without_aki", "intermediate"))
        guard case .refused(let code, let text) = error.reason else {
            Issue.record("expected a strict-mode refusal, got \(error)")
            return
        }
        #expect(code > 0 && !text.isEmpty)
        #expect(error.position == .leaf)
    }

    @Test func refusesABadSignature() throws {
        let pki = try TestPKI.get()
        var der = pki.der("leaf")
        der[der.count - 1] ^= 0x01  // inside the signature's s
        let leaf = try X509Certificate(der: der)
        #expect(throws: X509ChainError(.badSignature, at: .leaf)) {
            try pki.verifier().verify(leaf: leaf, intermediate: pki.certificate("intermediate"), at: pki.now)
        }
    }

    @Test func needsARoot() throws {
        #expect(throws: X509ChainError(.noTrustedRoots)) {
            try X509ChainVerifier(roots: [], leafExtensionOID: TestPKI.leafOID, intermediateExtensionOID: "1.2")
        }
    }

    @Test func messagesNameTheRuleNotTheCertificate() throws {
        let errors = try [
            refusal("other_leaf", "other_intermediate"), refusal("leaf_expired", "intermediate"),
            refusal("leaf_without_aki", "intermediate"), refusal("leaf_without_oid", "intermediate"),
        ]
        for error in errors {
            let text = String(describing: try #require(error))
            #expect(!text.contains("Test") && !text.contains("signin-backend"), "\(text)")
        }
        #expect(
            String(describing: X509ChainError(.expired, at: .leaf))
                == "leaf certificate: expired at the verification time")
    }
}
