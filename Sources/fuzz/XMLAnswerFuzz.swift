import AWSClients
import CurlHTTP

/// AWSClients' `XMLReader`, through every decoder of S3 and STS answers and the error classifier,
/// as the calls use them: no trap; a DeleteObjects answer never reports more failures than
/// objects sent; an error's message stays one bounded line.
enum XMLAnswerFuzz {
    static func run(_ bytes: [UInt8]) {
        let ok = HTTPResponse(status: 200, body: bytes)
        if let listing = try? S3Client.listing(from: ok), listing.isTruncated {
            require(listing.continuationToken?.isEmpty == false, "xml: a truncated listing has a token")
        }
        if let versions = try? S3Client.versionListing(from: ok) {
            require(versions.versions.allSatisfy { !$0.key.isEmpty }, "xml: every listed version has a key")
        }
        let sent = 2
        if let outcome = try? S3Client.batchDeleteOutcome(from: ok, count: sent) {
            require((0...sent).contains(outcome.deleted), "xml: DeleteObjects deletes 0...sent objects")
        }
        if let credentials = try? STSClient.credentials(from: ok) {
            require(!credentials.sessionToken.isEmpty, "xml: AssumeRole credentials are complete")
        }
        for status in [400, 403, 409, 503] {
            let error = ErrorClassifier.describe(HTTPResponse(status: status, body: bytes))
            require(error.message.unicodeScalars.count <= 300, "xml: an error message is at most 300 characters")
            require(
                !error.message.unicodeScalars.contains { $0.isASCII && ($0.value < 0x20 || $0.value == 0x7F) },
                "xml: an error message is one printable line")
        }
    }
}
