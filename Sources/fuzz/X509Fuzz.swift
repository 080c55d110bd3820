import AppStoreSignedData
import CryptoPrimitives
import PlatformSupport

/// CryptoPrimitives' `X509Certificate`: any bytes as DER and as a PEM bundle; a certificate that
/// parses is read as the App Store verifier reads one (validity, curve, OIDs, self-signature, its
/// key as P-256) and walked as a leaf under the test PKI's intermediate, with no trap; a parsed
/// certificate keeps exactly the bytes it was given.
enum X509Fuzz {
    nonisolated(unsafe) static let chains: X509ChainVerifier = try! X509ChainVerifier(
        roots: X509Certificate.certificates(pem: AppStoreFuzz.testRootPEM),
        leafExtensionOID: AppStoreSignedDataVerifier.leafExtensionOID,
        intermediateExtensionOID: AppStoreSignedDataVerifier.intermediateExtensionOID)

    /// The test PKI's intermediate (x5c[1] of the appstore seeds).
    static let intermediate = try! X509Certificate(der: Base64.decode(intermediateBase64)!)
    static let intermediateBase64 =
        "MIICWjCCAeGgAwIBAgIUR/7DzmH5O8oBdO1C8Ouo2GVBzXIwCgYIKoZIzj0EAwMwSDEaMBgGA1UEAwwRVGVzdCBSb290IENBIC0g"
        + "RzMxHTAbBgNVBAoMFHNpZ25pbi1iYWNrZW5kIHRlc3RzMQswCQYDVQQGEwJVUzAeFw0xNjExMjUxMTMwMTBaFw0zNjExMjAxMTMw"
        + "MTBaMFwxLjAsBgNVBAMMJVRlc3QgV29ybGR3aWRlIERldmVsb3BlciBSZWxhdGlvbnMgQ0ExHTAbBgNVBAoMFHNpZ25pbi1iYWNr"
        + "ZW5kIHRlc3RzMQswCQYDVQQGEwJVUzB2MBAGByqGSM49AgEGBSuBBAAiA2IABB13kPfIilmxNN8dmlnldU/4eX8bWQLe/V7qFUiQ"
        + "4nSRPw9t81t96uK99hyZ3FV08hFl/AASg3kxy9CQdhEI+E2Cr4pQofpL+nEgbJzcytAkQ7ivzMgg+VBMX4id2MYsPqN4MHYwHQYD"
        + "VR0OBBYEFGCIVhaf9Z7DdrRgAzJPVcC830kTMB8GA1UdIwQYMBaAFDOB3aECHPUfDfA1ixM2A1iBK+0IMBIGA1UdEwEB/wQIMAYB"
        + "Af8CAQAwDgYDVR0PAQH/BAQDAgEGMBAGCiqGSIb3Y2QGAgEEAgUAMAoGCCqGSM49BAMDA2cAMGQCMH2KYbPUs41mQ43ImmmvCyIp"
        + "efTeLxUrpIDsluIlNk6ei28Gw1J4qomLe4Fb0XbcRwIwVfNgKSfnHBFk4gansZk2pif2W5F9pdirdlgwmOfxf0VZ5nP/nr9y6YoD"
        + "7NwS+bvz"

    static func run(_ bytes: [UInt8]) {
        if let certificate = try? X509Certificate(der: bytes) {
            require(certificate.der == bytes, "x509: a certificate keeps its DER")
            read(certificate)
        }
        if let bundle = try? X509Certificate.certificates(pem: String(decoding: bytes, as: UTF8.self)) {
            require(!bundle.isEmpty, "x509: a PEM bundle has a certificate")
            for certificate in bundle { read(certificate) }
        }
    }

    static func read(_ certificate: X509Certificate) {
        _ = (certificate.notBefore, certificate.notAfter, certificate.publicKeyCurveName, certificate.isSelfSigned)
        _ = certificate.hasExtension(oid: AppStoreSignedDataVerifier.leafExtensionOID)
        _ = try? P256PublicKey(certificate: certificate)
        _ = try? chains.verify(leaf: certificate, intermediate: intermediate, at: certificate.notBefore)
    }
}
