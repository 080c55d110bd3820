/// What one purge pass did (the deletion record keeps `deleted` and `failed`).
package struct PurgePass: Sendable, Equatable {
    /// The listings reached their end and every version, delete marker and upload they found is gone.
    package var complete = false
    package var deleted = 0
    /// Versions, delete markers and uploads the pass found but could not remove. Each was tried on
    /// its own and the pass went on with the others; the next pass (the scheduled run) tries again.
    package var failed = 0

    package init(complete: Bool = false, deleted: Int = 0, failed: Int = 0) {
        self.complete = complete
        self.deleted = deleted
        self.failed = failed
    }
}
