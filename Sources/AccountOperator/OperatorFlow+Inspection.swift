import AWSClients
import AccountDeletion
import AccountLinks
import AccountModel
import AccountPurchases
import AccountStore
import AccountSuspensions
import PlatformSupport
import StrictJSON

/// Reading everything the service holds about an account (`authctl show` and `export`).
extension OperatorFlow {
    /// The purchase's state document (contract v3, `purchases/apple-state/`).
    package static func purchaseState(_ id: String) -> String { "purchases/apple-state/\(id).json" }

    package func inspect(
        _ uuid: String, withObjectKeys: Bool, deadline: Deadline
    ) throws(AccountError) -> AccountInspection {
        var out = AccountInspection(serviceUserID: uuid)
        var round = Round()
        let profileSlot = round.get(AccountKeys.profile(uuid)), providersSlot = round.get(AccountKeys.providers(uuid))
        let deletionSlot = round.get(AccountKeys.deletion(uuid))
        let answers = store.backend.run(round, deadline: deadline)
        if let p = try answers.value(profileSlot) {
            out.profile = try decodeDocument(p.body, key: AccountKeys.profile(uuid), Profile.init(json:))
        }
        if let v = try answers.value(providersSlot) {
            out.providers = try decodeDocument(v.body, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:))
        }
        if let d = try answers.value(deletionSlot) {
            out.deletion = try decodeDocument(d.body, key: AccountKeys.deletion(uuid), DeletionRecord.init(json:))
        }
        guard out.exists else { return out }
        out.suspensionRecords = try suspensions.suspensionRecords(of: out.providers, deadline: deadline)
        out.sessions = try store.sessionRecords(uuid, deadline: deadline).map(\.0)
        let ids = out.providers?.purchases ?? []
        let objects = try store.getAll(
            ids.flatMap { [AccountKeys.purchaseClaim($0), OperatorFlow.purchaseState($0)] }, deadline: deadline)
        for (n, id) in ids.enumerated() {
            let claim = objects[2 * n].1.map { String(decoding: $0.body, as: UTF8.self) }
            var state: JSONValue?
            if let body = objects[2 * n + 1].1?.body {
                do throws(JSONError) { state = try JSONParser.parse(body) } catch {
                    throw .corruptDocument(key: OperatorFlow.purchaseState(id), reason: error.description)
                }
            }
            out.purchases.append(.init(originalTransactionID: id, claimedBy: claim, state: state))
        }
        if withObjectKeys {
            let listed = try store.listAll(AccountKeys.userPrefix(uuid), deadline: deadline)
            out.objectKeys = listed.keys
            out.objectKeysComplete = listed.complete
        }
        return out
    }
}
