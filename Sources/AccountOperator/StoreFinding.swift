import AccountDeletion
import AccountModel
import AccountStore

/// One broken invariant `check` found in the bucket (docs/operations.md, "check").
package struct StoreFinding: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// An identity file whose account has neither profile.json nor providers.json nor a
        /// deletion record (a sign-up that stopped right after its commit point).
        case identityNamesMissingAccount = "identity-names-missing-account"
        /// An identity file of a deleted account (committed, or purged with its record left).
        case identityNamesDeletedAccount = "identity-names-deleted-account"
        /// An identity file of an unlinked or abandoned link of an existing account.
        case staleIdentityFile = "stale-identity-file"
        /// An identity file whose link is pending (or predates link ids) and is not listed: it
        /// signs in but the user cannot see it.
        case unlistedIdentity = "unlisted-identity"
        /// An identity providers.json lists whose identity file is missing or names another account.
        case listedIdentityWithoutFile = "listed-identity-without-file"
        /// An account with some of its documents and not the others.
        case halfMadeAccount = "half-made-account"
        /// A pending link older than its lifetime with no identity file: its link stopped.
        case stalePendingLink = "stale-pending-link"
        /// A purchase claim naming a deleted account.
        case claimNamesDeletedAccount = "claim-names-deleted-account"
        /// A deletion not finished well past CREDENTIALS_DURATION_SECONDS + 1 hour.
        case deletionStuck = "deletion-stuck"
        /// A deletion whose purge could not remove some keys or uploads (`purge.keysFailed`):
        /// they are isolated and retried by the scheduled run; a person looks at what stays.
        case purgeKeysFailed = "purge-keys-failed"
        /// An app transfer's re-key (contract v4) that stopped: its new identity file is written
        /// and providers.json does not list it yet (the key is that file), or providers.json
        /// committed it and the transfer files are still there (the key
        /// is providers.json). Repaired by finishing it, as the next sign-in would.
        case unfinishedRekey = "unfinished-rekey"
        /// An app transfer's file (`identities/apple-transfer/`) naming an account that does not exist.
        case transferNamesMissingAccount = "transfer-names-missing-account"
        /// An app transfer's file naming a deleted account (the deletion removes it; this one stayed).
        case transferNamesDeletedAccount = "transfer-names-deleted-account"
        /// An app transfer's file whose account's Apple link is not prepared for it (unlinked,
        /// re-keyed, or prepared again for another team): nothing signs in through it.
        case staleTransferFile = "stale-transfer-file"
        /// A transfer prepared in providers.json whose file is missing (the operator's `prepare`
        /// stopped between its two writes) or names another account: the user's sign-in after the
        /// transfer would not find the account.
        case preparedTransferWithoutFile = "prepared-transfer-without-file"
        /// A document or mapping file whose bytes do not decode: nothing is judged against it,
        /// and nothing repairs it (a person reads it: `show`, or the object's versions).
        case unreadableDocument = "unreadable-document"
        /// Google's suspension record of a Google identity and the holding account's entry say
        /// different things (one of Google's events stopped between its two writes).
        case suspensionNotApplied = "suspension-not-applied"
    }

    package var kind: Kind
    /// The account concerned.
    package var serviceUserID: String
    /// The object concerned (an identity file, a claim, a document).
    package var key: String
    /// Whether `--repair` fixed it (nil: not attempted), and what it did or why not.
    package var repaired: Bool?
    package var note: String?

    package init(kind: Kind, serviceUserID: String, key: String) {
        self.kind = kind
        self.serviceUserID = serviceUserID
        self.key = key
    }
}
