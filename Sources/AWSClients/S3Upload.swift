/// An incomplete multipart upload, as ListMultipartUploads names it: what AbortMultipartUpload
/// needs. Its parts are not object versions, so a purge by versions never sees them.
public struct S3Upload: Sendable, Equatable {
    public var key: String
    public var uploadID: String

    public init(key: String, uploadID: String) {
        self.key = key
        self.uploadID = uploadID
    }
}

/// One page of ListMultipartUploads under a prefix.
public struct S3UploadListing: Sendable, Equatable {
    public var uploads: [S3Upload]
    /// Where the next page starts (`key-marker`, `upload-id-marker`); nil on the last page.
    public var next: S3Upload?

    public init(uploads: [S3Upload], next: S3Upload?) {
        self.uploads = uploads
        self.next = next
    }
}
