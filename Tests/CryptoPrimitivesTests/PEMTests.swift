import Testing

@testable import CryptoPrimitives

struct PEMTests {
    static let body = "MIIBAQ=="  // 30 82 01 01

    @Test func readsBlocksAndIgnoresTextAround() throws {
        let text = """
            subject=CN = first
            -----BEGIN CERTIFICATE-----
            \(Self.body)
            -----END CERTIFICATE-----

            -----BEGIN PRIVATE KEY-----\r
            MII\r
            BAQ==\r
            -----END PRIVATE KEY-----\r
            """
        let blocks = try #require(PEM.blocks(text))
        #expect(blocks.map(\.label) == ["CERTIFICATE", "PRIVATE KEY"])
        #expect(blocks.allSatisfy { $0.der == [0x30, 0x82, 0x01, 0x01] })
        #expect(PEM.blocks("no blocks here")?.isEmpty == true)
    }

    @Test func refusesMalformedBlocks() {
        let cases = [
            "-----BEGIN CERTIFICATE-----\n\(Self.body)\n",  // unterminated
            "-----BEGIN CERTIFICATE-----\n\(Self.body)\n-----END PRIVATE KEY-----",  // mismatched
            "-----BEGIN A-----\n-----BEGIN B-----\n\(Self.body)\n-----END B-----\n-----END A-----",  // nested
            "-----BEGIN CERTIFICATE-----\nMIIBAQ\n-----END CERTIFICATE-----",  // no padding
            "-----BEGIN CERTIFICATE-----\nMIIB-Q==\n-----END CERTIFICATE-----",  // base64url alphabet
            "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----",  // empty
            "-----BEGIN CERTIFICATE-----\nMIIB AQ==\n-----END CERTIFICATE-----",  // space inside a line
        ]
        for (i, text) in cases.enumerated() {
            #expect(PEM.blocks(text) == nil, "case \(i)")
        }
    }
}
