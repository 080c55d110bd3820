import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import PurchaseModel

/// `purchases/apple-state/{originalTransactionId}.json` (contract v3): the newest verified state
/// of each purchase, claimed or not, kept after the account is deleted. Written only when what
/// arrives was signed later than what is there, with conditional writes (`If-None-Match: *` to
/// create, `If-Match` with the ETag read to update), so two writers racing keep the newer.
extension PurchaseFlow {
    /// Stores `state` for purchase `id` unless the stored one is as new or newer; answers the
    /// newest state after the write (the stored one when it won). A lost race (412) re-reads and
    /// decides again, at most `maxConditionalAttempts` times, then CONFLICT.
    package func recordPurchaseState(
        _ id: String, _ state: PurchaseState, deadline: Deadline
    ) throws(AccountError) -> PurchaseState {
        let key = AccountKeys.purchaseState(id)
        for attempt in 0..<AccountStore.maxConditionalAttempts {
            if attempt > 0 { store.pauseAfterLostRace() }
            let stored = try store.backend.get(key, deadline: deadline)
            let current = try stored.map { (o: S3Object) throws(AccountError) in
                try decodeDocument(o.body, key: key, PurchaseState.init(json:))
            }
            guard state.supersedes(current) else { return current ?? state }
            let condition: S3PutCondition = stored.map { .ifMatch($0.etag) } ?? .ifNoneMatch
            if case .stored = try store.backend.put(store.jsonPut(key, state.json, condition), deadline: deadline) {
                return state
            }
        }
        throw .conflict("the purchase's state kept changing")
    }

    /// The stored state of purchase `id`, if any.
    package func purchaseState(_ id: String, deadline: Deadline) throws(AccountError) -> PurchaseState? {
        let key = AccountKeys.purchaseState(id)
        return try store.backend.get(key, deadline: deadline).map { (o: S3Object) throws(AccountError) in
            try decodeDocument(o.body, key: key, PurchaseState.init(json:))
        }
    }

    /// The product a state names, as this deployment sells it; `fallback` (the product the
    /// caller verified) when the catalog no longer lists it.
    package static func product(
        of state: PurchaseState, in catalog: ProductCatalog, fallback: ProductCatalog.Product
    ) -> ProductCatalog.Product {
        catalog.product(state.productID) ?? fallback
    }
}
