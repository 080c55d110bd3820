/// One PutObject: key, body, content type, the condition it is written under, metadata and tags.
package struct S3Put: Sendable {
    package var key: String
    package var body: [UInt8]
    package var contentType: String
    package var condition: S3PutCondition
    /// User metadata: sent as `x-amz-meta-<name>`; names `[a-z0-9-]`, values printable ASCII.
    package var metadata: [(String, String)]
    /// Object tags (`x-amz-tagging`), e.g. for a lifecycle rule; keys and values `[A-Za-z0-9._-]`.
    package var tags: [(String, String)]

    package init(
        key: String, body: [UInt8], contentType: String, condition: S3PutCondition = .none,
        metadata: [(String, String)] = [],
        tags: [(String, String)] = []
    ) {
        self.key = key
        self.body = body
        self.contentType = contentType
        self.condition = condition
        self.metadata = metadata
        self.tags = tags
    }
}
