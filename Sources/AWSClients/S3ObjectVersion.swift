/// One version of an object (or a delete marker) in a versioned bucket, as ListObjectVersions
/// names it: what DeleteObjects needs to remove it for good.
public struct S3ObjectVersion: Sendable, Equatable {
    public var key: String
    /// `null` for an object written while the bucket was not versioned.
    public var versionID: String
    package var isDeleteMarker: Bool

    public init(key: String, versionID: String, isDeleteMarker: Bool = false) {
        self.key = key
        self.versionID = versionID
        self.isDeleteMarker = isDeleteMarker
    }
}

/// One page of ListObjectVersions: versions and delete markers together, in key order.
public struct S3VersionListing: Sendable, Equatable {
    public var versions: [S3ObjectVersion]
    /// Where the next page starts; nil on the last page.
    public var next: Marker?

    public struct Marker: Sendable, Equatable {
        public var key: String
        public var versionID: String

        public init(key: String, versionID: String) {
            self.key = key
            self.versionID = versionID
        }
    }

    public init(versions: [S3ObjectVersion], next: Marker?) {
        self.versions = versions
        self.next = next
    }
}

/// What DeleteObjects did with a batch: how many went, and the ones S3 refused (by key, with its
/// error code) so the caller can count them as not purged.
public struct S3BatchDeleteOutcome: Sendable, Equatable {
    public var deleted: Int
    public var failed: [(key: String, code: String)]

    public init(deleted: Int, failed: [(key: String, code: String)]) {
        self.deleted = deleted
        self.failed = failed
    }

    public static func == (a: S3BatchDeleteOutcome, b: S3BatchDeleteOutcome) -> Bool {
        a.deleted == b.deleted && a.failed.map(\.key) == b.failed.map(\.key)
            && a.failed.map(\.code) == b.failed.map(\.code)
    }
}
