package enum S3PutCondition: Sendable, Equatable {
    /// Unconditional.
    case none
    /// `If-None-Match: *`: create only.
    case ifNoneMatch
    /// `If-Match: <etag>`: replace only the version that was read.
    case ifMatch(String)
}
