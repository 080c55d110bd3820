/// An incomplete multipart upload, as ListMultipartUploads names it: what AbortMultipartUpload
/// needs. Its parts are not object versions, so a purge by versions never sees them.
package struct S3Upload: Sendable, Equatable {
    package var key: String
    package var uploadID: String

    package init(key: String, uploadID: String) {
        self.key = key
        self.uploadID = uploadID
    }
}

/// One page of ListMultipartUploads under a prefix.
package struct S3UploadListing: Sendable, Equatable {
    package var uploads: [S3Upload]
    /// Where the next page starts (`key-marker`, `upload-id-marker`); nil on the last page.
    package var next: S3Upload?

    package init(uploads: [S3Upload], next: S3Upload?) {
        self.uploads = uploads
        self.next = next
    }
}
