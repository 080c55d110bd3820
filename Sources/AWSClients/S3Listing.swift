/// One page of ListObjectsV2.
public struct S3Listing: Sendable, Equatable {
    public var keys: [String]
    /// More keys follow this page.
    package var isTruncated: Bool
    package var continuationToken: String?

    package init(keys: [String], isTruncated: Bool, continuationToken: String? = nil) {
        self.keys = keys
        self.isTruncated = isTruncated
        self.continuationToken = continuationToken
    }
}
