import AWSClients
import AccountTestSupport
import PlatformSupport

/// Deletion in the simulation (issue 18): what a user's own credentials write under their prefix
/// (keys with control characters, unfinished multipart uploads), the races the audit found (a link
/// racing a deletion whose purge completes; Apple's `account-delete` racing an unlink of the other
/// provider), and deletions that keep failing among healthy ones.
extension SimulationWorld {
    /// Keys a user may write under `photos/`: S3 accepts them all; DeleteObjects' XML must carry
    /// the first ones escaped and cannot carry the last ones at all.
    static let userKeys = [
        "photos/cr\rhere.jpg", "photos/crlf\r\n.jpg", "photos/lf\n.jpg", "photos/tab\t.jpg", "photos/soh\u{1}.jpg",
        "photos/esc\u{1B}.jpg", "photos/fffe\u{FFFE}.jpg", "photos/plain.jpg", "photos/amp&<>.jpg",
    ]

    /// A device writes with the credentials its session got (straight to S3, not through the
    /// service): while its account is not deleted, or within the credentials' lifetime after the
    /// commit (credentials issued before it still work).
    func userWrite(actor: Int, session s: HeldSession) {
        let s3 = scheduler.s3
        if let committed = s3.json(AccountKeys.deletion(s.uuid))?["committedAt"]?.stringValue.flatMap(ISO8601.parse),
            scheduler.clock >= committed + Int64(settings.credentialsDurationSeconds) * 1000
        {
            return
        }
        guard s3.current(AccountKeys.profile(s.uuid)) != nil || s3.current(AccountKeys.deletion(s.uuid)) != nil else {
            return
        }
        let prefix = AccountKeys.userPrefix(s.uuid)
        if scheduler.rng.chance(0.3) {
            let upload = s3.startUpload(prefix + "photos/video-\(scheduler.rng.below(1000)).mov")
            scheduler.note("actor \(actor): user starts multipart upload \(upload.uploadID) under \(s.uuid.prefix(8))")
        } else {
            let key = prefix + scheduler.rng.pick(Self.userKeys)
            s3.store(key, [0xFF, 0xD8], contentType: "image/jpeg")
            scheduler.note("actor \(actor): user writes \(key.debugDescription)")
        }
    }

    /// Two devices of the first person that race each other on purpose: 0, one links Google
    /// while the other deletes the account (its purge given all the time it needs); 1, Apple's
    /// `account-delete` arrives while the other device unlinks Google.
    func addDeletionRacers(mode: Int) {
        let person = SimIdentity.people[0]
        var linker = -1
        linker = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            signIn(linker, person[0], intent: .auto, mine: &mine)
            guard let s = mine.first else { return }
            link(linker, s, person[1])
            if mode == 1 {
                _ = run(linker, "apple account-delete", session: nil) { service throws(AccountError) in
                    try service.appleEvents.handleAppleEvent(
                        .accountDelete, subject: person[0].sub, eventID: "jti-race-\(linker)", purgeUntil: .none,
                        deadline: .none
                    ).rawValue
                }
            }
        }
        var other = -1
        other = scheduler.addActor { [unowned self] in
            var mine: [HeldSession] = []
            signIn(other, person[0], intent: .auto, mine: &mine)
            guard let s = mine.first else { return }
            scheduler.sleep(Int64(scheduler.rng.below(3)))
            if mode == 0 {
                _ = run(other, "delete", session: s) { service throws(AccountError) in
                    let out = try service.deletion.deleteAccount(token: s.held, purgeUntil: .none, deadline: .none)
                    return out.purgeComplete ? "complete" : "pending"
                }
            } else {
                _ = run(other, "unlink google", session: s, unlinked: .google) { service throws(AccountError) in
                    try service.links.unlink(token: s.held, provider: .google, deadline: .none).status.rawValue
                }
            }
        }
    }

    /// A deletion whose purge fails every time (S3 answers 500 under its prefix) and a record
    /// nobody can read, among the run's healthy deletions.
    func addPoisonedDeletions() {
        let uuid = "0badc0de-0000-4000-8000-000000000001"
        var record = DeletionRecord(serviceUserID: uuid, requestedAtMs: scheduler.clock)
        record.committedAtMs = scheduler.clock
        record.mappingsRemoved = true
        record.secondPassDueAtMs = scheduler.clock + Int64(settings.credentialsDurationSeconds) * 1000 + 60_000
        scheduler.s3.store(AccountKeys.deletion(uuid), record.json.serialized())
        scheduler.s3.store(AccountKeys.userPrefix(uuid) + "photos/a.jpg", [1], contentType: "image/jpeg")
        scheduler.s3.poisonedPrefixes.insert(AccountKeys.userPrefix(uuid))
        let unreadable = "0badc0de-0000-4000-8000-000000000002"
        scheduler.s3.store(AccountKeys.deletion(unreadable), Array("{\"version\": 1, \"serviceUserID\"".utf8))
        poisonedDeletions = [uuid, unreadable]
    }
}
