package struct S3Object: Sendable {
    package var body: [UInt8]
    /// Exactly as S3 sent it, quotes included: pass it back unchanged to `.ifMatch`.
    package var etag: String
    package var contentType: String?
    /// User metadata (`x-amz-meta-*`), names lowercase without the prefix.
    package var metadata: [(String, String)]
    /// `x-amz-version-id` in a versioned bucket; nil when the bucket is not versioned (S3 then
    /// sends no header, or `null`).
    package var versionID: String?

    package init(
        body: [UInt8], etag: String, contentType: String?, metadata: [(String, String)] = [], versionID: String? = nil
    ) {
        self.body = body
        self.etag = etag
        self.contentType = contentType
        self.metadata = metadata
        self.versionID = versionID
    }

    /// The value of one user-metadata entry (name lowercase, without `x-amz-meta-`).
    package func metadata(_ name: String) -> String? { metadata.first { $0.0 == name }?.1 }
}
