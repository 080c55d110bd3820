import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import SigV4

/// The calls a purge needs in a versioned bucket: list every version and delete marker under a
/// prefix, and delete up to 1,000 of them per request, each for good (by version id).
extension S3Client {
    /// DeleteObjects takes at most this many objects per request.
    package static let maxBatchDelete = 1000

    /// One page (up to 1,000 entries) of ListObjectVersions under `prefix`, from `marker` on.
    func prepareListVersions(prefix: String, after marker: S3VersionListing.Marker?) -> PreparedCall<S3VersionListing> {
        var query: [(name: String, value: String)] = [
            ("versions", ""), ("encoding-type", "url"), ("max-keys", "1000"), ("prefix", prefix),
        ]
        if let marker {
            query.append(("key-marker", marker.key))
            query.append(("version-id-marker", marker.versionID))
        }
        let request: Result<OperationRequest, AWSError>
        if let problem = bucketProblem {
            request = .failure(.invalid(problem))
        } else if prefix.isEmpty {
            request = .failure(.invalid("a version listing needs a prefix"))  // never the whole bucket
        } else if let problem = ObjectKeyRule.prefixProblem(prefix) {
            request = .failure(.invalid("list prefix: " + problem))
        } else {
            request = .success(
                OperationRequest(method: "GET", path: pathPrefix.isEmpty ? "/" : pathPrefix + "/", query: query))
        }
        return PreparedCall(transport: transport, request: request, interpret: S3Client.versionListing)
    }

    /// DeleteObjects of up to `maxBatchDelete` versions, each by version id (gone for good, no
    /// delete marker left). S3 wants a checksum of the body: `x-amz-checksum-sha256`.
    func prepareDeleteVersions(_ versions: [S3ObjectVersion]) -> PreparedCall<S3BatchDeleteOutcome> {
        let request: Result<OperationRequest, AWSError>
        if let problem = bucketProblem {
            request = .failure(.invalid(problem))
        } else if versions.isEmpty || versions.count > S3Client.maxBatchDelete {
            request = .failure(.invalid("DeleteObjects takes 1 to \(S3Client.maxBatchDelete) objects"))
        } else {
            var body = Array(
                #"<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>"#
                    .utf8)
            for v in versions {
                body += Array("<Object><Key>".utf8) + XMLText.escaped(v.key) + Array("</Key><VersionId>".utf8)
                body += XMLText.escaped(v.versionID) + Array("</VersionId></Object>".utf8)
            }
            body += Array("</Delete>".utf8)
            let headers: [(name: String, value: String)] = [
                ("Content-Type", "application/xml"), ("x-amz-sdk-checksum-algorithm", "SHA256"),
                ("x-amz-checksum-sha256", Base64.encode(SHA256.hash(body))),
            ]
            request = .success(
                OperationRequest(
                    method: "POST", path: pathPrefix.isEmpty ? "/" : pathPrefix + "/",
                    query: [("delete", "")], headers: headers, body: body))
        }
        let count = versions.count
        return PreparedCall(transport: transport, request: request) { response throws(AWSError) in
            try S3Client.batchDeleteOutcome(from: response, count: count)
        }
    }
}

/// Text for an XML element: `&`, `<`, `>` escaped; characters XML 1.0 cannot carry are refused
/// by the key rules before a key gets here (the service only deletes keys S3 listed, url-decoded).
enum XMLText {
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&apos;".utf8)
            default: out.append(b)
            }
        }
        return out
    }
}
