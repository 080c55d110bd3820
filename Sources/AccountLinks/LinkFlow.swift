import AccountSessions
import AccountStore
import AccountSuspensions

/// The account's identities: link, unlink, the completion of a half-made account or a pending link
/// (which any sign-in or `check --repair` may finish), and an Apple app transfer's re-key.
///
/// Ordering, so that a crash, a lost answer or a race never leaves an identity that signs in
/// without being listed, or one listed that does not sign in:
/// - link: claim the provider's slot in providers.json (a pending entry, `If-Match`), then create
///   the identity file with the link id in its metadata (the commit point), then activate the
///   entry. A sign-in with that identity completes a claim whose file exists; a claim whose file
///   never came is abandoned after `ProvidersDocument.pendingLifetimeMs`.
/// - unlink: providers.json first: the entry moves to `retired` in the same conditional write
///   that checks it is not the last provider (the commit point; every session of that link stops
///   working at once), then that exact version of the identity file is deleted. A retry, or any
///   sign-in that meets the leftover file, finishes the job.
///
/// Uses the sessions (a link's own token check) and the suspensions; never the purge or deletion.
package struct LinkFlow {
    package let store: AccountStore
    package let sessions: SessionFlow
    package let suspensions: SuspensionFlow

    package init(store: AccountStore, sessions: SessionFlow, suspensions: SuspensionFlow) {
        self.store = store
        self.sessions = sessions
        self.suspensions = suspensions
    }
}
