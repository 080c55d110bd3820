package enum S3PutOutcome: Sendable, Equatable {
    case stored(etag: String)
    /// The condition did not hold: the key exists (`.ifNoneMatch`), or it changed or is gone (`.ifMatch`).
    case preconditionFailed
}
