/// One page of ListObjectsV2.
package struct S3Listing: Sendable, Equatable {
    package var keys: [String]
    /// More keys follow this page.
    package var isTruncated: Bool
    package var continuationToken: String?
    /// With a delimiter: the prefixes the keys below were rolled up into (each counts as one
    /// entry of the page, however many keys it holds), in S3's order.
    package var commonPrefixes: [String]

    package init(keys: [String], isTruncated: Bool, continuationToken: String? = nil, commonPrefixes: [String] = []) {
        self.keys = keys
        self.isTruncated = isTruncated
        self.continuationToken = continuationToken
        self.commonPrefixes = commonPrefixes
    }
}

/// One ListObjectsV2 request with every choice named: a prefix, a delimiter that rolls the keys
/// below each next `delimiter` up into one common prefix (S3 then never returns the keys under
/// it, so listing `users/` with `/` costs one entry per account, not one per photo), where to
/// continue, and the page size (1…1000).
package struct S3ListRequest: Sendable, Equatable {
    package var prefix: String
    package var delimiter: String?
    package var continuationToken: String?
    package var pageSize: Int

    package init(prefix: String, delimiter: String? = nil, continuationToken: String? = nil, pageSize: Int = 1000) {
        self.prefix = prefix
        self.delimiter = delimiter
        self.continuationToken = continuationToken
        self.pageSize = max(1, min(pageSize, 1000))
    }
}
