/// How `check` walks and what it may do (docs/operations.md, "What check finds").
package struct StoreCheckOptions: Sendable {
    /// Repair what is found (only when the walk finished), each account's breaks re-read first.
    package var repair = false
    /// Listing pages per prefix at most; a listing cut here leaves the check incomplete.
    package var maxPages = 100_000
    /// Entries per listing page (S3's maximum, 1,000, unless a test or the bench asks for fewer).
    package var pageSize = 1_000

    package init(repair: Bool = false, maxPages: Int = 100_000, pageSize: Int = 1_000) {
        self.repair = repair
        self.maxPages = max(1, maxPages)
        self.pageSize = max(1, min(pageSize, 1_000))
    }
}

/// What the caller is told around each account `check --repair` changes: before its first write
/// (answer false to stop repairing: the operator's trail could not be written), and after.
package struct StoreRepairHooks {
    package var willRepair: (_ uuid: String, _ findings: [StoreFinding]) -> Bool
    package var didRepair: (_ uuid: String, _ findings: [StoreFinding]) -> Void

    package init(
        willRepair: @escaping (String, [StoreFinding]) -> Bool = { _, _ in true },
        didRepair: @escaping (String, [StoreFinding]) -> Void = { _, _ in }
    ) {
        self.willRepair = willRepair
        self.didRepair = didRepair
    }
}
