import CurlHTTP
import PlatformSupport
import SigV4

/// Calls on keys S3 listed rather than keys this service names: a purge must remove every key a
/// user's credentials wrote under the account's prefix, whatever characters it holds, so these
/// skip `ObjectKeyRule` (which only this service's own keys pass) and check only what S3 itself
/// requires of a key (1 to 1,024 bytes). The path is percent-encoded byte by byte.
extension S3Client {
    /// DeleteObject of one version, for good: for a listed key that DeleteObjects cannot carry.
    func prepareDeleteListedVersion(_ version: S3ObjectVersion) -> PreparedCall<S3DeleteOutcome> {
        let request = listedKeyRequest(version.key).flatMap { path -> Result<OperationRequest, AWSError> in
            guard !version.versionID.isEmpty, S3Client.isHeaderValue(version.versionID) else {
                return .failure(.invalid("version id is not printable"))
            }
            return .success(
                OperationRequest(
                    method: "DELETE", path: path, query: [("versionId", version.versionID)], accept: [404]))
        }
        return PreparedCall(transport: transport, request: request) { response throws(AWSError) in
            try S3Client.goneOutcome(response, missing: ["NoSuchKey", "NoSuchVersion"])
        }
    }

    /// One page (up to 1,000) of ListMultipartUploads under `prefix`, from `marker` on.
    func prepareListUploads(prefix: String, after marker: S3Upload?) -> PreparedCall<S3UploadListing> {
        var query: [(name: String, value: String)] = [
            ("uploads", ""), ("encoding-type", "url"), ("max-uploads", "1000"), ("prefix", prefix),
        ]
        if let marker {
            query.append(("key-marker", marker.key))
            query.append(("upload-id-marker", marker.uploadID))
        }
        let request: Result<OperationRequest, AWSError>
        if let problem = bucketProblem {
            request = .failure(.invalid(problem))
        } else if prefix.isEmpty {
            request = .failure(.invalid("an upload listing needs a prefix"))  // never the whole bucket
        } else if let problem = ObjectKeyRule.prefixProblem(prefix) {
            request = .failure(.invalid("list prefix: " + problem))
        } else {
            request = .success(
                OperationRequest(method: "GET", path: pathPrefix.isEmpty ? "/" : pathPrefix + "/", query: query))
        }
        return PreparedCall(transport: transport, request: request, interpret: S3Client.uploadListing)
    }

    /// AbortMultipartUpload: its parts are freed; an upload already gone (aborted, completed)
    /// is as good as aborted.
    func prepareAbortUpload(_ upload: S3Upload) -> PreparedCall<S3DeleteOutcome> {
        let request = listedKeyRequest(upload.key).flatMap { path -> Result<OperationRequest, AWSError> in
            guard !upload.uploadID.isEmpty, S3Client.isHeaderValue(upload.uploadID) else {
                return .failure(.invalid("upload id is not printable"))
            }
            return .success(
                OperationRequest(method: "DELETE", path: path, query: [("uploadId", upload.uploadID)], accept: [404]))
        }
        return PreparedCall(transport: transport, request: request) { response throws(AWSError) in
            try S3Client.goneOutcome(response, missing: ["NoSuchUpload"])
        }
    }

    private func listedKeyRequest(_ key: String) -> Result<String, AWSError> {
        if let problem = bucketProblem { return .failure(.invalid(problem)) }
        guard !key.isEmpty, key.utf8.count <= ObjectKeyRule.maxBytes else {
            return .failure(.invalid("object key is empty or longer than \(ObjectKeyRule.maxBytes) bytes"))
        }
        return .success(pathPrefix + "/" + SigV4.encodePath(key))
    }

    private static func goneOutcome(_ response: HTTPResponse, missing: Set<String>) throws(AWSError) -> S3DeleteOutcome
    {
        switch response.status {
        case 200, 204: return .deleted
        case 404:
            let error = ErrorClassifier.describe(response)
            if error.code == nil || missing.contains(error.code!) { return .deleted }
            throw error
        default:
            var error = ErrorClassifier.describe(response)
            if (200..<400).contains(response.status) { error.kind = .other }
            throw error
        }
    }

    /// A ListMultipartUploads page; keys url-decoded when S3 says it encoded them.
    package static func uploadListing(from response: HTTPResponse) throws(AWSError) -> S3UploadListing {
        guard response.status == 200, let root = XMLReader.parse(response.body),
            root.name == "ListMultipartUploadsResult"
        else {
            throw AWSError(
                kind: .other, message: "ListMultipartUploads answer is not a ListMultipartUploadsResult",
                status: response.status)
        }
        let decoded = listedKeyDecoder(root, answer: "ListMultipartUploads")
        var uploads: [S3Upload] = []
        for item in root.children("Upload") {
            guard let id = item["UploadId"], !id.isEmpty else {
                throw AWSError(kind: .other, message: "ListMultipartUploads answer has an upload without an id")
            }
            uploads.append(S3Upload(key: try decoded(item["Key"]), uploadID: id))
        }
        guard root["IsTruncated"] == "true" else { return S3UploadListing(uploads: uploads, next: nil) }
        guard let key = root["NextKeyMarker"], !key.isEmpty, let id = root["NextUploadIdMarker"], !id.isEmpty else {
            throw AWSError(kind: .other, message: "ListMultipartUploads answer is truncated without markers")
        }
        return S3UploadListing(uploads: uploads, next: S3Upload(key: try decoded(key), uploadID: id))
    }
}
