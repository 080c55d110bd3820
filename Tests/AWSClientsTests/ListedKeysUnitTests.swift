import CurlHTTP
import Testing

@testable import AWSClients

/// How the purge reads S3's listings of keys a user wrote (`encoding-type=url`: S3 percent-encodes
/// every key, so none reaches the XML raw) and what it refuses to send (S3's answers as documented;
/// moto ignores `encoding-type` and is covered by MotoListedKeysTests).
@Suite struct ListedKeysUnitTests {
    @Test func urlEncodedVersionKeysAreDecodedExactly() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><ListVersionsResult><EncodingType>url</EncodingType>\
            <IsTruncated>false</IsTruncated><Version><Key>users/u/photos/cr%0Dsoh%01lf%0A+plus%2B.jpg</Key>\
            <VersionId>v1</VersionId></Version></ListVersionsResult>
            """
        let page = try S3Client.versionListing(from: HTTPResponse(status: 200, body: Array(xml.utf8)))
        #expect(page.versions.map(\.key) == ["users/u/photos/cr\rsoh\u{1}lf\n plus+.jpg"])
    }

    @Test func urlEncodedUploadKeysAndMarkersAreDecoded() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><EncodingType>url</EncodingType>\
            <IsTruncated>true</IsTruncated><NextKeyMarker>users/u/photos/b%0D.mov</NextKeyMarker>\
            <NextUploadIdMarker>id-2</NextUploadIdMarker>\
            <Upload><Key>users/u/photos/a%01.mov</Key><UploadId>id-1</UploadId></Upload>\
            <Upload><Key>users/u/photos/b%0D.mov</Key><UploadId>id-2</UploadId></Upload>\
            </ListMultipartUploadsResult>
            """
        let page = try S3Client.uploadListing(from: HTTPResponse(status: 200, body: Array(xml.utf8)))
        #expect(page.uploads.map(\.key) == ["users/u/photos/a\u{1}.mov", "users/u/photos/b\r.mov"])
        #expect(page.next == S3Upload(key: "users/u/photos/b\r.mov", uploadID: "id-2"))
        let broken = """
            <ListMultipartUploadsResult><IsTruncated>true</IsTruncated></ListMultipartUploadsResult>
            """
        #expect(throws: AWSError.self) {
            try S3Client.uploadListing(from: HTTPResponse(status: 200, body: Array(broken.utf8)))
        }
    }

    @Test func theBodyEscapesWhatXMLWouldOtherwiseChange() {
        let body = String(
            decoding: S3Client.deleteObjectsBody([S3ObjectVersion(key: "p/a\r\n\tb&<>'\"", versionID: "v")]),
            as: UTF8.self)
        #expect(body.contains("<Key>p/a&#13;&#10;&#9;b&amp;&lt;&gt;&apos;&quot;</Key>"))
        #expect(!XMLText.canCarry("p/\u{1}") && !XMLText.canCarry("p/\u{FFFF}") && !XMLText.canCarry("p/\u{1F}"))
        #expect(XMLText.canCarry("p/\t\r\n\u{85}\u{2028}\u{10000}"))
    }
}
