import AccountTestSupport
import PlatformSupport
import StrictJSON

/// The purchase invariants (docs/API.md, `claimPurchase`), read from the stored JSON:
/// - one owner per purchase: once an account's claim succeeded, another account's claim of the
///   same purchase succeeds only if the first account was deleted (which releases it);
/// - a claim file names a live account whose providers.json lists the purchase (after the
///   deletions are finished, a deleted account holds no claim; with faults, a crashed claim may
///   leave one, which the next claim of the purchase releases);
/// - each purchase's entry in profile.json's subscription never moves backwards in `signedDate`,
///   over every version S3 kept, and ends at least as new as every claim that succeeded for its
///   current owner. (Contract v3's invariants: `SimulationChecks+PurchaseStates.swift`.)
extension SimulationChecks {
    mutating func purchases() {
        let deleted = deletedAccounts
        for id in SimulationWorld.purchaseIDs {
            let claims = world.records.filter { $0.purchase == id && $0.name.hasPrefix("claim") && $0.succeeded }
                .sorted { $0.endMs < $1.endMs }
            var owner: String?
            for c in claims {
                guard let uuid = c.session?.uuid else { continue }
                if let previous = owner, previous != uuid, !deleted.contains(previous) {
                    report("op \(c.id): \(id) claimed by \(uuid.prefix(8)) while \(previous.prefix(8)) owns it")
                }
                owner = uuid
            }
            guard let holder = s3.text(AccountKeys.purchaseClaim(id)) else { continue }
            if deleted.contains(holder) {
                // A claim cut short by a crash may leave its file; the next claim of the purchase
                // releases it (`releaseIfOwnerDeleted`). Without faults nothing may be left.
                if world.scheduler.faultCount == 0 {
                    report("\(id) is still claimed by deleted account \(holder.prefix(8))")
                }
            } else if !(s3.json(AccountKeys.providers(holder))?["purchases"]?.arrayValue ?? []).contains(.string(id)) {
                report("\(id) is claimed by \(holder.prefix(8)), whose providers.json does not list it")
            }
            let newest = claims.filter { $0.session?.uuid == holder }.compactMap(\.signedDateMs).max()
            if let newest, let stored = signedDate(of: id, s3.json(AccountKeys.profile(holder))), stored < newest {
                report("\(holder.prefix(8))'s subscription is older than its claim of \(id)")
            }
        }
        for (key, versions) in s3.history where key.hasSuffix("/account/profile.json") {
            var last: [String: Int64] = [:]
            for v in versions where !v.isDeleteMarker {
                let profile = try? JSONParser.parse(v.body)
                for id in SimulationWorld.purchaseIDs {
                    guard let t = signedDate(of: id, profile) else { continue }
                    if t < last[id, default: .min] { report("\(key.prefix(14))…: \(id) moved back in signedDate") }
                    last[id] = max(last[id, default: .min], t)
                }
            }
        }
    }

    /// The `signedDate` of purchase `id`'s entry in the profile's `subscription.purchases`.
    func signedDate(of id: String, _ profile: JSONValue?) -> Int64? {
        let entries = profile?["subscription"]?["purchases"]?.arrayValue ?? []
        let entry = entries.first { $0["originalTransactionId"]?.stringValue == id }
        return entry?["signedDate"]?.stringValue.flatMap(ISO8601.parse)
    }
}
