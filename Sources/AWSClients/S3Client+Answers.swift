import CurlHTTP
import SigV4

/// How S3's XML answers are read: named functions rather than closures inside the calls, so the
/// fuzz target (Sources/fuzz) reads hostile bytes exactly as the calls do.
extension S3Client {
    /// A ListObjectsV2 page.
    package static func listing(from response: HTTPResponse) throws(AWSError) -> S3Listing {
        guard response.status == 200, let root = XMLReader.parse(response.body), root.name == "ListBucketResult"
        else {
            throw AWSError(
                kind: .other, message: "ListObjectsV2 answer is not a ListBucketResult",
                requestID: response.header("x-amz-request-id"), status: response.status)
        }
        let urlEncoded = root["EncodingType"] == "url"
        var keys: [String] = []
        for item in root.children("Contents") {
            guard let raw = item["Key"], let key = urlEncoded ? SigV4.decode(raw) : raw else {
                throw AWSError(kind: .other, message: "ListObjectsV2 answer has a malformed key")
            }
            keys.append(key)
        }
        var prefixes: [String] = []
        for item in root.children("CommonPrefixes") {
            guard let raw = item["Prefix"], let prefix = urlEncoded ? SigV4.decode(raw) : raw, !prefix.isEmpty else {
                throw AWSError(kind: .other, message: "ListObjectsV2 answer has a malformed common prefix")
            }
            prefixes.append(prefix)
        }
        guard root["IsTruncated"] == "true" else {
            return S3Listing(keys: keys, isTruncated: false, commonPrefixes: prefixes)
        }
        guard let next = root["NextContinuationToken"], !next.isEmpty else {
            throw AWSError(kind: .other, message: "ListObjectsV2 answer is truncated without a continuation token")
        }
        return S3Listing(keys: keys, isTruncated: true, continuationToken: next, commonPrefixes: prefixes)
    }

    /// A ListObjectVersions page.
    package static func versionListing(from response: HTTPResponse) throws(AWSError) -> S3VersionListing {
        guard response.status == 200, let root = XMLReader.parse(response.body), root.name == "ListVersionsResult"
        else {
            throw AWSError(
                kind: .other, message: "ListObjectVersions answer is not a ListVersionsResult",
                status: response.status)
        }
        let decoded = listedKeyDecoder(root, answer: "ListObjectVersions")
        var versions: [S3ObjectVersion] = []
        for item in root.children where item.name == "Version" || item.name == "DeleteMarker" {
            versions.append(
                S3ObjectVersion(
                    key: try decoded(item["Key"]), versionID: item["VersionId"] ?? "null",
                    isDeleteMarker: item.name == "DeleteMarker"))
        }
        guard root["IsTruncated"] == "true" else { return S3VersionListing(versions: versions, next: nil) }
        guard let key = root["NextKeyMarker"], !key.isEmpty else {
            throw AWSError(kind: .other, message: "ListObjectVersions answer is truncated without a key marker")
        }
        return S3VersionListing(
            versions: versions, next: .init(key: try decoded(key), versionID: root["NextVersionIdMarker"] ?? ""))
    }

    /// A DeleteObjects answer for `count` objects sent (quiet mode: only the failures are listed).
    package static func batchDeleteOutcome(
        from response: HTTPResponse, count: Int
    ) throws(AWSError)
        -> S3BatchDeleteOutcome
    {
        guard response.status == 200, let root = XMLReader.parse(response.body), root.name == "DeleteResult" else {
            throw AWSError(kind: .other, message: "DeleteObjects answer is not a DeleteResult", status: response.status)
        }
        let failed = root.children("Error").map { (key: $0["Key"] ?? "", code: $0["Code"] ?? "Unknown") }
        // More failures than objects sent is no answer to this request (and would count negative deletions).
        guard failed.count <= count else {
            throw AWSError(kind: .other, message: "DeleteObjects answer lists more errors than objects sent")
        }
        return S3BatchDeleteOutcome(deleted: count - failed.count, failed: failed)
    }

    /// How a listing's keys are read: keys the app wrote may hold characters XML cannot carry, so
    /// listings are asked url-encoded and decoded when S3 says it encoded them; an empty or
    /// undecodable key is a malformed answer of `answer`.
    static func listedKeyDecoder(
        _ root: XMLTag, answer: String
    ) -> (String?) throws(AWSError) -> String {
        let urlEncoded = root["EncodingType"] == "url"
        return { (raw: String?) throws(AWSError) -> String in
            guard let raw, let key = urlEncoded ? SigV4.decode(raw) : raw, !key.isEmpty else {
                throw AWSError(kind: .other, message: "\(answer) answer has a malformed key")
            }
            return key
        }
    }
}
