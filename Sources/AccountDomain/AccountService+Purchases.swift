import AWSClients
import PlatformSupport

/// What `claimPurchase` did (docs/API.md, auth-link `claimPurchase`).
public struct ClaimOutcome: Sendable {
    public enum Status: String, Sendable {
        case claimed
        case alreadyClaimed = "already_claimed"
    }

    public var status: Status
    public var account: Account
}

/// Purchases belong to accounts. Order, so that a deletion always releases every claim and a
/// refused claim changes nothing:
/// 1. the session, the account and the claim file, in one round; a claim file naming another
///    account (or an `appAccountToken` naming another account) refuses here, before any write;
/// 2. the purchase is listed in providers.json (`If-Match`, refused once the account is deleted:
///    the deletion commits in that document, so it sees every listed claim);
/// 3. the claim file, created only if absent; losing that race to another account takes the
///    listing back out and refuses;
/// 4. the subscription in profile.json (`If-Match`, monotonic in `signedDate`).
/// A stop after 2 leaves a listing without a file (harmless: deletion only removes a file that
/// names the account); a retry finishes the claim.
extension AccountService {
    public func claimPurchase(
        token: String, purchase: StorePurchase, product: ProductCatalog.Product, deadline: Deadline
    ) throws(AccountError) -> ClaimOutcome {
        guard purchase.hasValidID else { throw .invalidPurchase("the original transaction id is not Apple's shape") }
        let key = AccountKeys.purchaseClaim(purchase.originalTransactionID)
        let auth = try authenticate(token, recent: false, alsoRead: [key], deadline: deadline)
        let uuid = auth.token.serviceUserID
        if let owner = purchase.appAccountToken, owner != uuid { throw .purchaseBelongsToOtherAccount }
        var status = ClaimOutcome.Status.alreadyClaimed
        if let file = auth.extra[0], String(decoding: file.body, as: UTF8.self) != uuid {
            throw .purchaseBelongsToOtherAccount
        }
        var account = try listPurchase(purchase.originalTransactionID, in: auth.account, deadline: deadline)
        if auth.extra[0] == nil {
            let put = S3Put(key: key, body: Array(uuid.utf8), contentType: "text/plain", condition: .ifNoneMatch)
            switch try backend.put(put, deadline: deadline) {
            case .stored: status = .claimed
            case .preconditionFailed:
                // Created meanwhile: by this claim's own lost answer, or by another account.
                let owner = try backend.get(key, deadline: deadline).map { String(decoding: $0.body, as: UTF8.self) }
                guard owner == uuid else {
                    _ = try? unlistPurchase(purchase.originalTransactionID, in: account, deadline: deadline)
                    throw .purchaseBelongsToOtherAccount
                }
            }
        }
        let subscription = Subscription(purchase: purchase, product: product, nowMs: environment.now())
        account = try updateProfile(account, deadline: deadline) { subscription.apply(to: &$0) }
        return ClaimOutcome(status: status, account: account)
    }

    func listPurchase(_ id: String, in account: Account, deadline: Deadline) throws(AccountError) -> Account {
        try updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard !doc.isDeleted else { throw .sessionInvalid(reason: "the account was deleted") }
            guard !doc.purchases.contains(id) else { return false }
            doc.purchases.append(id)
            return true
        }
    }

    func unlistPurchase(_ id: String, in account: Account, deadline: Deadline) throws(AccountError) -> Account {
        try updateProviders(account, deadline: deadline) {
            (doc: inout ProvidersDocument) throws(AccountError) -> Bool in
            guard let i = doc.purchases.firstIndex(of: id) else { return false }
            doc.purchases.remove(at: i)
            return true
        }
    }
}
