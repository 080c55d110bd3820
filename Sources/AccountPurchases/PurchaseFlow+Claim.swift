import AWSClients
import AccountModel
import AccountSessions
import AccountStore
import PlatformSupport
import PurchaseModel

/// What `claimPurchase` did (docs/API.md, auth-link `claimPurchase`).
package struct ClaimOutcome: Sendable {
    package enum Status: String, Sendable {
        case claimed
        case alreadyClaimed = "already_claimed"
    }

    package var status: Status
    package var account: Account

    package init(status: Status, account: Account) {
        self.status = status
        self.account = account
    }
}

/// Purchases belong to accounts. Order, so that a deletion always releases every claim and a
/// refused claim changes nothing:
/// 1. the session, the account and the claim file, in one round; a claim file naming another
///    account (or an `appAccountToken` naming another account) refuses here, before any write;
/// 2. the purchase is listed in providers.json (`If-Match`, refused once the account is deleted:
///    the deletion commits in that document, so it sees every listed claim). This write is the
///    claim's commit against a disable (refused once the account is disabled, docs/decisions/
///    accounts-and-sessions.md, "A disable is re-checked"): a listing already there is written
///    again unchanged, so that a disable stored since the account was read fails the `If-Match`
///    and is seen (a repeat claim too, or it would rewrite a disabled account's profile);
/// 3. the claim file, created only if absent; losing that race to another account takes the
///    listing back out and refuses;
/// 4. the purchase's state (`purchases/apple-state/`): the newest of what is stored, the presented
///    transaction and Apple's answer (contract v3), so a transaction signed before a refund or
///    expiry the service has seen never makes the purchase active again;
/// 5. that state merged into profile.json's `subscription` (`If-Match`, monotonic per purchase in
///    `signedDate`), which is the best of every purchase the account claimed.
/// A stop after 2 leaves a listing without a file (harmless: deletion only removes a file that
/// names the account); a retry finishes the claim.
extension PurchaseFlow {
    /// - Parameters:
    ///   - product: the presented transaction's product (the caller checked this deployment sells it).
    ///   - catalog: what each product grants, for a stored state naming another product of the group.
    ///   - appleStatus: the purchase's current state as the App Store Server API reports it (nil:
    ///     not configured, unreachable, or nothing newer), asked once the claim is the account's.
    package func claimPurchase(
        token: String, purchase: StorePurchase, product: ProductCatalog.Product,
        catalog: ProductCatalog = ProductCatalog(), deadline: Deadline,
        appleStatus: (Deadline) -> PurchaseState? = { _ in nil }
    ) throws(AccountError) -> ClaimOutcome {
        guard purchase.hasValidID else { throw .invalidPurchase("the original transaction id is not Apple's shape") }
        let key = AccountKeys.purchaseClaim(purchase.originalTransactionID)
        let auth = try sessions.authenticate(token, recent: false, alsoRead: [key], deadline: deadline)
        let uuid = auth.token.serviceUserID
        if let owner = purchase.appAccountToken, owner != uuid { throw .purchaseBelongsToOtherAccount }
        var status = ClaimOutcome.Status.alreadyClaimed
        var existing = try store.mapping(auth.extra[0], key: key)
        if let claim = existing, claim.uuid != uuid {
            // Another account's claim: it stands, unless that account was deleted (a claim that
            // raced its deletion, or one whose clean-up was cut short): then it is released here.
            guard try releaseIfOwnerDeleted(claim, key: key, deadline: deadline) else {
                throw .purchaseBelongsToOtherAccount
            }
            existing = nil
        }
        // Always a write of its own, a repeat claim's too: it is what decides on the account
        // against a disable (issue 35, defect 10: a repeat claim rewrote a disabled profile).
        var account = try listPurchase(purchase.originalTransactionID, in: auth.account, deadline: deadline)
        if existing == nil {
            let put = S3Put(key: key, body: Array(uuid.utf8), contentType: "text/plain", condition: .ifNoneMatch)
            switch try store.backend.put(put, deadline: deadline) {
            case .stored(let etag):
                status = .claimed
                try confirmNotDeleted(uuid, claim: key, etag: etag, deadline: deadline)
            case .preconditionFailed:
                // Created meanwhile: by this claim's own lost answer, or by another account.
                let owner = try store.backend.get(key, deadline: deadline).map {
                    String(decoding: $0.body, as: UTF8.self)
                }
                guard owner == uuid else {
                    _ = try? unlistPurchase(purchase.originalTransactionID, in: account, deadline: deadline)
                    throw .purchaseBelongsToOtherAccount
                }
            }
        }
        // The newer of the presented transaction, Apple's answer and the stored state (read only
        // now that the claim file exists: a notification that stores a state after this read
        // finds the claim and brings its news to the account itself).
        let id = purchase.originalTransactionID
        let presented = PurchaseState(transaction: purchase, nowMs: store.environment.now())
        let newest = try recordPurchaseState(id, presented.newer(appleStatus(deadline)), deadline: deadline)
        let entry = Subscription(
            originalTransactionID: id, state: newest,
            product: PurchaseFlow.product(of: newest, in: catalog, fallback: product))
        account = try store.updateProfile(account, deadline: deadline) { entry.apply(to: &$0) }
        return ClaimOutcome(status: status, account: account)
    }

    /// Lists purchase `id`, and writes providers.json even when it is listed already (unchanged),
    /// so that the claim's decision on the account is made by this conditional write.
    package func listPurchase(_ id: String, in account: Account, deadline: Deadline) throws(AccountError) -> Account {
        try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
            try doc.refuseIfDisabled()
            if !doc.purchases.contains(id) { doc.purchases.append(id) }
            return true
        }
    }

    /// A claim file created after this account's deletion committed (the deletion read the
    /// listing before the file existed) is taken back at once: the account is gone.
    package func confirmNotDeleted(
        _ uuid: String, claim key: String, etag: String, deadline: Deadline
    ) throws(AccountError) {
        let providers = try store.backend.get(AccountKeys.providers(uuid), deadline: deadline)
        let doc = try providers.map { (o: S3Object) throws(AccountError) in
            try decodeDocument(o.body, key: AccountKeys.providers(uuid), ProvidersDocument.init(json:))
        }
        guard doc?.isDeleted ?? true else { return }
        var round = Round()
        let slot = round.delete(key, .ifMatch(etag))
        _ = try store.backend.run(round, deadline: deadline).value(slot)
        throw .sessionInvalid(reason: "the account was deleted")
    }

    /// Whether `claim` (naming another account) belonged to a deleted account, in which case it is
    /// removed by the version read and the purchase is free again.
    package func releaseIfOwnerDeleted(
        _ claim: IdentityMapping, key: String, deadline: Deadline
    ) throws(AccountError) -> Bool {
        let owner = claim.uuid
        var reads = Round()
        let providersSlot = reads.get(AccountKeys.providers(owner)), recordSlot = reads.get(AccountKeys.deletion(owner))
        let answers = store.backend.run(reads, deadline: deadline)
        let record = try answers.value(recordSlot)
        let deleted: Bool
        if let providers = try answers.value(providersSlot) {
            let doc = try decodeDocument(
                providers.body, key: AccountKeys.providers(owner), ProvidersDocument.init(json:))
            deleted = doc.isDeleted
        } else {
            deleted = record != nil  // purged: only its deletion record is left
        }
        guard deleted else { return false }
        try store.discard(claim, key: key, session: nil, deadline: deadline)
        return true
    }

    package func unlistPurchase(_ id: String, in account: Account, deadline: Deadline) throws(AccountError) -> Account {
        try store.updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard let i = doc.purchases.firstIndex(of: id) else { return false }
            doc.purchases.remove(at: i)
            return true
        }
    }
}
