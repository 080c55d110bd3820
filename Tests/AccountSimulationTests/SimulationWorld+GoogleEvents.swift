import AccountTestSupport
import PlatformSupport

/// Google's Cross-Account Protection in the simulation (issue 25): security events about the
/// people's Google identities, racing their own sign-ins, sign-ups, links and unlinks. Each event
/// is one operation through fresh flows (auth-link's), named `google <effect> <sub>`,
/// with no session: `endSessions` (sessions-revoked and the like), `suspend` (account-disabled
/// with reason hijacking) and `lift` (account-enabled). Events carry the time Google issued them
/// (`iat`); now and then one is delivered again (same `jti`) or late (an older `iat`).
extension SimulationWorld {
    /// One event as delivered: what, about whom, its `jti` and `iat`.
    struct GoogleEvent {
        var effect: GoogleSecurityEffect
        var sub: String
        var eventID: String
        var issuedAtMs: Int64

        var name: String {
            switch effect {
            case .endSessions: return "google endSessions \(sub)"
            case .suspend: return "google suspend \(sub)"
            case .lift: return "google lift \(sub)"
            }
        }
    }

    /// Google, sending `count` events about the universe's Google identities.
    func addGoogle(events count: Int) {
        var actor = -1
        actor = scheduler.addActor { [unowned self] in
            var sent: [GoogleEvent] = []
            let subs = SimIdentity.universe.filter { $0.provider == .google }.map(\.sub)
            for n in 0..<count {
                // Between events Google is idle (operations in flight keep their time, as a device's sleep).
                scheduler.park(actor, calls: [], pauseMs: 0)
                scheduler.sleep(Int64(scheduler.rng.pick([0, 100, 1_000, 5_000])))
                var event: GoogleEvent
                if let earlier = sent.last, scheduler.rng.chance(0.15) {
                    event = scheduler.rng.chance(0.5) ? earlier : scheduler.rng.pick(sent)  // delivered again
                } else {
                    let effect: GoogleSecurityEffect = scheduler.rng.pick([
                        .endSessions, .suspend(reason: "hijacking"), .suspend(reason: "hijacking"), .lift, .lift,
                    ])
                    // Late now and then: issued before the last one delivered.
                    let late = scheduler.rng.chance(0.2) && !sent.isEmpty
                    let issued = late ? (sent.map(\.issuedAtMs).min() ?? scheduler.clock) - 1 : scheduler.clock
                    event = GoogleEvent(
                        effect: effect, sub: scheduler.rng.pick(subs), eventID: "risc-\(actor)-\(n)", issuedAtMs: issued
                    )
                }
                sent.append(event)
                googleEvents.append(event)
                _ = run(actor, event.name, session: nil, googleEvent: event) { service throws(AccountError) in
                    try service.googleEvents.processGoogleSecurityEvent(
                        event.effect, subject: event.sub, eventID: event.eventID, issuedAtMs: event.issuedAtMs,
                        deadline: .none
                    ).outcome.rawValue
                }
            }
        }
    }
}
