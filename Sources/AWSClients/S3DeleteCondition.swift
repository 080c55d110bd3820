/// Which object a DeleteObject may remove.
package enum S3DeleteCondition: Sendable, Equatable {
    /// Whatever is there (a delete marker in a versioned bucket).
    case none
    /// Exactly this version, permanently (`?versionId=`): a version that is no longer there is
    /// left alone, so a later object under the same key is never removed by mistake.
    case version(String)
    /// `If-Match: <etag>`: only the current object, if it still has this ETag.
    case ifMatch(String)
}
