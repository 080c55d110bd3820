/// One version of an object (or a delete marker) in a versioned bucket, as ListObjectVersions
/// names it: what DeleteObjects needs to remove it for good.
package struct S3ObjectVersion: Sendable, Equatable {
    package var key: String
    /// `null` for an object written while the bucket was not versioned.
    package var versionID: String
    package var isDeleteMarker: Bool

    package init(key: String, versionID: String, isDeleteMarker: Bool = false) {
        self.key = key
        self.versionID = versionID
        self.isDeleteMarker = isDeleteMarker
    }
}

/// One page of ListObjectVersions: versions and delete markers together, in key order.
package struct S3VersionListing: Sendable, Equatable {
    package var versions: [S3ObjectVersion]
    /// Where the next page starts; nil on the last page.
    package var next: Marker?

    package struct Marker: Sendable, Equatable {
        package var key: String
        package var versionID: String

        package init(key: String, versionID: String) {
            self.key = key
            self.versionID = versionID
        }
    }

    package init(versions: [S3ObjectVersion], next: Marker?) {
        self.versions = versions
        self.next = next
    }
}

/// What DeleteObjects did with a batch: how many went, and the ones S3 refused (by key, with its
/// error code) so the caller can count them as not purged.
package struct S3BatchDeleteOutcome: Sendable, Equatable {
    package var deleted: Int
    package var failed: [(key: String, code: String)]

    package init(deleted: Int, failed: [(key: String, code: String)]) {
        self.deleted = deleted
        self.failed = failed
    }

    package static func == (a: S3BatchDeleteOutcome, b: S3BatchDeleteOutcome) -> Bool {
        a.deleted == b.deleted && a.failed.map(\.key) == b.failed.map(\.key)
            && a.failed.map(\.code) == b.failed.map(\.code)
    }
}
