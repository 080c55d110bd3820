import Foundation

/// The durable "in flight" mark (contract v5, "The app's clients"): written to the store before an
/// attempt leaves, so a relaunch after a kill, another process of the app and an extension know
/// that the stored token may have rotated; and the rotated token, stored before it is presented.
extension SignInSession {
    /// Stores the mark for an attempt presenting `token`, before it leaves. A store that cannot be
    /// written sends nothing (`storeUnavailable`: the session stays, retry later): an attempt
    /// nobody knows of could rotate a token that a relaunch would then present unmarked.
    func markInFlight(_ token: String) throws(SignInError) {
        guard var marked = session, marked.refreshToken == token else { return }
        let now = configuration.clock()
        marked.unansweredSince = marked.unansweredSince ?? now
        marked.inFlightOwner = instanceID
        marked.inFlightAt = now
        do { try configuration.store.save(try marked.encoded()) } catch {
            throw .storeUnavailable(detail: "the in-flight mark could not be stored; nothing was sent")
        }
        pendingStoreChange = .none  // the whole session was just written, any owed change with it
        session = marked
    }

    /// After a refresh that consumed nothing (offline, a throttle, an error envelope) and that no
    /// earlier attempt may have rotated: the mark goes (an extension may present the token again).
    /// A write that fails leaves it: a mark too many only makes the next call settle it.
    func clearInFlightMark(_ token: String) {
        guard var cleared = session, cleared.refreshToken == token, cleared.unansweredSince != nil else { return }
        cleared.unansweredSince = nil
        cleared.inFlightOwner = nil
        cleared.inFlightAt = nil
        guard (try? configuration.store.save(try cleared.encoded())) != nil else { return }
        session = cleared
    }

    /// What a refresh answer becomes: the rotated session, stored before anyone sees it. Kept as
    /// it is (the stored, presented token, still marked, with the answer's credentials, which may
    /// be used) when the store cannot be written, or when it shows that another process is
    /// presenting the same token now (its retry will supersede ours). A newer rotation another
    /// process stored meanwhile wins (it presented our token after our attempt's bound: its
    /// answer superseded ours).
    func settle(_ previous: StoredSession, by answer: Decoded<RefreshAnswer>, presented: String) -> StoredSession {
        let next = rotated(previous, by: answer)
        let stored = storedSession()
        if let stored, stored.refreshToken != presented, stored.user.serviceUserID == previous.user.serviceUserID,
            stored.rotation > previous.rotation
        {
            session = stored
            return stored
        }
        let othersAttempt = stored?.refreshToken == presented && stored?.inFlightOwner.map { $0 != instanceID } == true
        if !othersAttempt, (try? configuration.store.save(try next.encoded())) != nil {
            pendingStoreChange = .none
            session = next
            return next
        }
        var kept = previous
        kept.credentials = next.credentials
        kept.storage = next.storage
        kept.user = next.user
        kept.receivedAt = next.receivedAt
        kept.serverClockOffset = next.serverClockOffset
        session = kept
        return kept
    }

    /// Before presenting `current`'s token: when the store shows an attempt of the same token by
    /// another process that may still be under way (younger than an attempt's bound), waits until
    /// the store changes or the bound has passed (bounded polls), and says whether to look again.
    /// Two processes of the app then make one refresh, not two of one token.
    func waitedForAnotherProcess(_ current: StoredSession) async -> Bool {
        let bound = configuration.otherAttemptBound
        guard let mark = storedSession(), let left = othersAttemptLeft(mark, token: current.refreshToken, bound: bound)
        else { return false }
        let polls = Int((min(left, bound) / 0.25).rounded(.up))
        for _ in 0..<max(1, polls) {
            try? await Task.sleep(for: .milliseconds(250))
            guard let now = storedSession(), now == mark else { break }
        }
        if let now = storedSession(), now.refreshToken == current.refreshToken {
            session?.unansweredSince = now.unansweredSince ?? session?.unansweredSince
        }
        return true
    }

    /// Seconds another process's attempt of `token`, marked in `stored`, may still be under way.
    func othersAttemptLeft(_ stored: StoredSession, token: String, bound: TimeInterval) -> TimeInterval? {
        guard stored.refreshToken == token, let owner = stored.inFlightOwner, owner != instanceID,
            let at = stored.inFlightAt
        else { return nil }
        let elapsed = configuration.clock().timeIntervalSince(at)
        // A clock gone back cannot tell: the mark counts as old (a wait that could repeat forever is worse).
        return elapsed >= 0 && elapsed < bound ? bound - elapsed : nil
    }

    /// The store's session now; nil when it holds none or cannot be read.
    func storedSession() -> StoredSession? {
        guard let data = try? configuration.store.load() else { return nil }
        return try? StoredSession.decode(data)
    }
}
