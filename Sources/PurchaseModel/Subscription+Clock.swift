import StrictJSON

extension Subscription {
    /// This purchase as of `nowMs` (contract v5): a paid status (`active`, `grace`) past its end
    /// (`expiresDate`, or the grace period's end) is `expired`, whether or not a notification
    /// said so (Apple's `DID_FAIL_TO_RENEW` without a subtype, a lost `EXPIRED`).
    package func asOf(_ nowMs: Int64) -> Subscription {
        guard isPaid, let end = expiryMs, end <= nowMs else { return self }
        var ended = self
        ended.status = .expired
        return ended
    }

    /// A stored `subscription` object as of `nowMs`: every listed purchase judged against the
    /// clock and the best recomputed, exactly as a write would pick it. What answers and the
    /// operator's console show; profile.json itself changes only when news arrives. An object
    /// with nothing past its end (or that lists no purchase) comes back as it is.
    package static func judged(_ stored: JSONValue, nowMs: Int64) -> JSONValue {
        let listed = claimed(in: stored)
        let judged = listed.map { $0.asOf(nowMs) }
        guard judged != listed, let best = best(of: judged) else { return stored }
        return best.json(storageUsed: stored["storageUsed"], purchases: judged)
    }
}
