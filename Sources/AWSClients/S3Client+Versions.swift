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
        } else if !versions.allSatisfy({ XMLText.canCarry($0.key) && XMLText.canCarry($0.versionID) }) {
            // S3 would refuse the whole batch (MalformedXML): such keys go one by one.
            request = .failure(.invalid("a DeleteObjects key holds a character XML 1.0 cannot carry"))
        } else {
            let body = S3Client.deleteObjectsBody(versions)
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

extension S3Client {
    /// The DeleteObjects body (quiet mode), every key and version id escaped so that S3's XML
    /// parser reads back exactly the bytes listed: see `XMLText`.
    package static func deleteObjectsBody(_ versions: [S3ObjectVersion]) -> [UInt8] {
        var body = Array(
            #"<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>"#
                .utf8)
        for v in versions {
            body += Array("<Object><Key>".utf8) + XMLText.escaped(v.key) + Array("</Key><VersionId>".utf8)
            body += XMLText.escaped(v.versionID) + Array("</VersionId></Object>".utf8)
        }
        body += Array("</Delete>".utf8)
        return body
    }
}

/// Text for an XML element, as S3's "XML related object key constraints" ask: `&`, `<`, `>`,
/// quotes escaped, and `\r`, `\n`, `\t` as character references: an XML parser reads a raw CR
/// (or CR LF) as LF and may fold other whitespace, so a key holding them would name another key
/// (S3 reports a missing version deleted: the object would stay). Characters XML 1.0 cannot carry
/// at all (C0 controls other than tab, LF and CR, U+FFFE, U+FFFF), not even as references, make
/// S3 refuse the whole request: `canCarry` tells, and such keys are deleted one by one instead.
package enum XMLText {
    package static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&apos;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x0A: out += Array("&#10;".utf8)
            case 0x09: out += Array("&#9;".utf8)
            default: out.append(b)
            }
        }
        return out
    }

    /// Whether every character is one XML 1.0 allows (`Char` production: tab, LF, CR, U+0020 to
    /// U+D7FF, U+E000 to U+FFFD, U+10000 on; a Swift string holds no lone surrogate).
    package static func canCarry(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { s in
            switch s.value {
            case 0x09, 0x0A, 0x0D: return true
            case 0..<0x20, 0xFFFE, 0xFFFF: return false
            default: return true
            }
        }
    }
}
