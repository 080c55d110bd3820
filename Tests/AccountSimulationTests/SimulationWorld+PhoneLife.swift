import AccountTestSupport

/// Contract v5, "A phone's life never ends a session": the transitions of a phone that freezes,
/// kills or puts an app to sleep in the middle of a refresh, and of an extension that read the
/// store a moment before the app stored its rotation. SimulationChecks+PhoneLife.swift holds
/// their invariants.
extension SimulationWorld {
    /// A refresh whose answer the app never read (frozen, killed after the server committed, or
    /// asleep), then, a minute to hours later, the same token again: sometimes first to another
    /// action (the app's next call was a list, which answers SESSION_INVALID and revokes
    /// nothing while the rotation it missed is unpresented), then to a refresh, whose answer it
    /// reads.
    func interruptedRefresh(actor: Int, session s: HeldSession) {
        if let token = run(
            actor, "refresh (answer lost)", session: s,
            { service throws(AccountError) in
                try service.sessions.refresh(token: s.held, deadline: .none).session.refreshToken.value
            })
        {
            s.delivered.append(token)
        }
        let pause = Int64(scheduler.rng.pick([60_000, 600_000, 3_600_000, 4 * 3_600_000]))
        scheduler.note("actor \(actor) frozen for \(pause) ms")
        scheduler.sleep(pause)
        if scheduler.rng.chance(0.3) {
            _ = run(actor, "list after the freeze", session: s) { service throws(AccountError) in
                try service.sessions.listSessions(token: s.held, deadline: .none).count
            }
        }
        if let token = run(
            actor, "refresh after the freeze", session: s,
            { service throws(AccountError) in
                try service.sessions.refresh(token: s.held, deadline: .none).session.refreshToken.value
            })
        {
            s.delivered.append(token)
            s.adopt(token)
        }
    }

    /// An extension that read the store just before the app stored its last rotation presents
    /// the token the app held before, to a list. Within the grace, or while the app has not yet
    /// presented its new token, that is SESSION_INVALID and revokes nothing; later it is reuse.
    /// Such a session is no longer one whose holders present only their newest token.
    func staleExtension(actor: Int, session s: HeldSession) {
        guard let stale = s.heldBefore else { return }
        s.honest = false
        _ = run(actor, "extension list", session: s, presenting: stale) { service throws(AccountError) in
            try service.sessions.listSessions(token: stale, deadline: .none).count
        }
    }
}
