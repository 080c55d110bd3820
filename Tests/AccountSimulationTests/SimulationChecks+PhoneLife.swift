import AccountTestSupport

/// The invariants of contract v5's "A phone's life never ends a session", over every session
/// of the run (SimulationWorld+PhoneLife.swift makes the phones):
/// - a session is revoked for reuse only when a token came back that, by the stored record, was
///   reuse when presented (an older one, the rotated-out one after the grace once its successor
///   was presented, a superseded one after its grace);
/// - a session only ever presented with its holder's newest token (`honest`) is never revoked,
///   whatever its delays, lost answers and deaths.
/// Both read the stored JSON, not the code under test.
extension SimulationChecks {
    mutating func revocationsForCause() {
        for s in world.sessions {
            guard
                let reason = s3.json(AccountKeys.session(s.uuid, s.sessionID))?["revokedReason"]?.stringValue,
                reason == "refresh token reuse"
            else { continue }
            if s.honest {
                fail(
                    "session \(s.sessionID.prefix(6)): revoked for reuse, but its device only ever presented its newest token"
                )
            }
            let cause = world.records.contains { r in
                r.session === s && r.presented != nil && (r.reuseAtStart || r.reuseAtEnd)
            }
            if !cause {
                fail("session \(s.sessionID.prefix(6)): revoked for reuse, but no token it issued came back as reuse")
            }
        }
    }
}
