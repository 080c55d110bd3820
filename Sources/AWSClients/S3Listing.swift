/// One page of ListObjectsV2.
package struct S3Listing: Sendable, Equatable {
    package var keys: [String]
    /// More keys follow this page.
    package var isTruncated: Bool
    package var continuationToken: String?

    package init(keys: [String], isTruncated: Bool, continuationToken: String? = nil) {
        self.keys = keys
        self.isTruncated = isTruncated
        self.continuationToken = continuationToken
    }
}
