/// ACCOUNT_DISABLED as providers.json holds it (the rules: AccountStore+Disabled.swift).
extension ProvidersDocument {
    /// Disabled and not deleted: a deleted account's sessions are SESSION_INVALID as before.
    package var isActiveButDisabled: Bool { isDisabled && !isDeleted }

    /// Inside the committing write of the account's own action (the `mutate` of `updateProviders`,
    /// which sees the document being replaced): ACCOUNT_DISABLED when it is disabled.
    package func refuseIfDisabled() throws(AccountError) {
        if isActiveButDisabled { throw .accountDisabled }
    }
}
