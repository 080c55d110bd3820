/// What one of Apple's account events changed in an account, so that the caller audits and
/// counts it as it does the same change asked for by the user (issue 18, defect 7).
package enum AppleEventChange: Sendable, Equatable {
    /// `account-delete` of an Apple identity beside others: unlinked, as `unlink` does.
    case unlinked(serviceUserID: String)
    /// `account-delete` of the account's last provider: deleted, as `delete` does.
    case deleted(serviceUserID: String, purgeComplete: Bool)
}

/// How an Apple account event ended, and what it changed (nil: nothing an audit line records).
package struct AppleEventResult: Sendable, Equatable {
    package var outcome: AppleEventOutcome
    package var change: AppleEventChange?

    package init(outcome: AppleEventOutcome, change: AppleEventChange? = nil) {
        self.outcome = outcome
        self.change = change
    }
}
