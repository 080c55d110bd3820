import Foundation

/// A read-only process (an app extension): it never refreshes, never writes the shared store, and
/// presents only the token the store holds at the moment it asks (docs/client.md, "App extensions").
extension SignInSession {
    /// Adopts what the store holds now. Throws `notSignedIn` when it holds nothing (or the session
    /// that ended here), `storeUnavailable` when it cannot be read (nothing is presented then),
    /// and `refreshNotAllowed` while the app is settling a refresh whose answer it never read (any
    /// action with that token would be refused): retry later.
    func adoptStoredSession() throws(SignInError) {
        let data: Data?
        do { data = try configuration.store.load() } catch { throw .storeUnavailable(detail: "\(error)") }
        // Unreadable (a format newer than this extension): unknown, not signed out.
        let stored = try data.map(StoredSession.decode)
        guard let stored, stored.refreshToken != endedToken else {
            if session != nil { end(.userSignedOut) }
            throw .notSignedIn
        }
        if stored.refreshToken != session?.refreshToken {
            let sameAccount = stored.user.serviceUserID == session?.user.serviceUserID
            if !sameAccount { generation &+= 1 }
            session = stored
            loadState = .loaded
            publish(sameAccount ? .refreshed(stored.user) : .signedIn(stored.user))
        }
        guard stored.unansweredSince == nil else { throw .refreshNotAllowed }
    }

    /// After a definitive answer to the token presented under `asked`: true when the store holds
    /// another token by now (the app rotated meanwhile), or the same one marked in flight (the app's
    /// refresh of it left after we read the store: v5 refuses it to us without revoking), so the
    /// answer is about a token this process must forget or wait for, not a reason to end anything.
    func storeMovedOn(from asked: UInt64) -> Bool {
        guard asked == generation, let presented = session?.refreshToken else { return false }
        guard let data = try? configuration.store.load(), let stored = try? StoredSession.decode(data) else {
            return false
        }
        return stored.refreshToken != presented || stored.unansweredSince != nil
    }
}
