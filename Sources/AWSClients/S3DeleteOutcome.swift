package enum S3DeleteOutcome: Sendable, Equatable {
    /// Deleted, or there was nothing to delete.
    case deleted
    /// `.ifMatch`: the current object has another ETag.
    case preconditionFailed
}
