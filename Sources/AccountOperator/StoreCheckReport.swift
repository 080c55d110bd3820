/// What `check` walked and found.
package struct StoreCheckReport: Sendable {
    package var findings: [StoreFinding] = []
    /// Account prefixes (`users/<uuid>/`) checked, and the mapping files and records read.
    package var accounts = 0
    package var identityFiles = 0
    package var claims = 0
    package var deletions = 0
    /// App transfers' files (`identities/apple-transfer/`, contract v4).
    package var transferFiles = 0
    /// Google's suspension records (suspended or lifted).
    package var suspensions = 0
    /// Listing pages and requests made (the bench prints them).
    package var pages = 0
    package var requests = 0
    /// Why not everything was checked: a listing cut by the page limit or failing, a document
    /// that could not be read (the first `keptReasons`; `uncheckedCount` counts them all).
    /// Empty when the check is complete.
    package private(set) var unchecked: [String] = []
    package private(set) var uncheckedCount = 0
    /// Whether `--repair` was asked but not run because the walk did not finish (nothing is
    /// repaired from a walk that could not see everything).
    package var repairsWithheld = false

    package var complete: Bool { uncheckedCount == 0 }

    /// Reasons kept word for word (S3 failing for every read must not fill the memory with them).
    package static let keptReasons = 100

    package mutating func noteUnchecked(_ why: String) {
        uncheckedCount += 1
        if unchecked.count < StoreCheckReport.keptReasons { unchecked.append(why) }
    }

    package init() {}
}
