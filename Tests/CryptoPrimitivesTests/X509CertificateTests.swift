import Testing

@testable import CryptoPrimitives

struct X509CertificateTests {
    @Test func parsesDERAndReadsWhatVerificationNeeds() throws {
        let pki = try TestPKI.get()
        let leaf = try pki.certificate("leaf")
        #expect(leaf.der == pki.der("leaf"))
        #expect(leaf.notBefore == pki.window("leaf").notBefore)
        #expect(leaf.notAfter == pki.window("leaf").notAfter)
        #expect(leaf.publicKeyCurveName == "prime256v1")
        #expect(!leaf.isSelfSigned)
        #expect(leaf.hasExtension(oid: TestPKI.leafOID))
        #expect(!leaf.hasExtension(oid: TestPKI.intermediateOID))
        #expect(try P256PublicKey(certificate: leaf).subjectPublicKeyInfo.count == 91)

        let root = try pki.certificate("root")
        #expect(root.isSelfSigned)
        #expect(root.publicKeyCurveName == "secp384r1")
        // A P-384 key is not an ES256 key.
        #expect(throws: P256PublicKey.KeyError.invalidKey) { try P256PublicKey(certificate: root) }
        #expect(try pki.certificate("intermediate").hasExtension(oid: TestPKI.intermediateOID))
    }

    @Test func refusesWhatIsNotExactlyOneDERCertificate() throws {
        let der = try TestPKI.get().der("leaf")
        var badTag = der
        badTag[0] = 0x31
        let cases: [[UInt8]] = [[], [0x30, 0x00], Array(der.dropLast()), der + [0], badTag, Array(der.prefix(40))]
        for (i, bytes) in cases.enumerated() {
            #expect(throws: X509Certificate.ParseError.malformed, "case \(i)") { try X509Certificate(der: bytes) }
        }
    }

    @Test func readsPEMBundles() throws {
        let pki = try TestPKI.get()
        let bundle = "Test roots\n" + pki.rootPEM + "\n# another\n" + pki.otherRootPEM
        let certificates = try X509Certificate.certificates(pem: bundle)
        #expect(certificates.count == 2)
        #expect(certificates[0].der == pki.der("root"))
        #expect(certificates[1].der == pki.der("other_root"))

        let key = "-----BEGIN PRIVATE KEY-----\nMIIBAQ==\n-----END PRIVATE KEY-----\n"
        for (i, text) in ["", "no PEM here", pki.rootPEM + key, String(pki.rootPEM.dropLast(30))].enumerated() {
            #expect(throws: X509Certificate.ParseError.notPEMCertificates, "case \(i)") {
                try X509Certificate.certificates(pem: text)
            }
        }
        let notACertificate = "-----BEGIN CERTIFICATE-----\nMIIBAQ==\n-----END CERTIFICATE-----\n"
        #expect(throws: X509Certificate.ParseError.malformed) { try X509Certificate.certificates(pem: notACertificate) }
    }

    @Test func describesOnlyTheSize() throws {
        let leaf = try TestPKI.get().certificate("leaf")
        #expect(String(describing: leaf) == "X509Certificate(\(leaf.der.count) bytes)")
        #expect(!String(describing: leaf).contains("Test"))
    }
}
