/// One page of ListObjectsV2.
public struct S3Listing: Sendable, Equatable {
    public var keys: [String]
    /// More keys follow this page.
    public var isTruncated: Bool
    public var continuationToken: String?

    public init(keys: [String], isTruncated: Bool, continuationToken: String? = nil) {
        self.keys = keys
        self.isTruncated = isTruncated
        self.continuationToken = continuationToken
    }
}
