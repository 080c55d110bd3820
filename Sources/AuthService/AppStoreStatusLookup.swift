import AWSClients
import AccountLinks
import AccountModel
import AccountPurchases
import AccountStore
import AppStoreServerAPI
import AppStoreSignedData
import CurlHTTP
import PlatformSupport
import PurchaseModel

/// A claim's question to the App Store Server API (contract v3): the purchase's current state as
/// Apple signs it now. Every signed item of the answer is verified exactly as a signed transaction
/// (chain, OIDs, bundle, environment; the renewal info too); one that fails discards the answer.
/// Never throws: when Apple cannot be reached within the time given, refuses, or answers
/// something unverifiable, the claim goes on with what it has and the log gets one word.
package final class AppStoreStatusLookup {
    package let settings: AppStoreServerAPISettings
    package let http: HTTPClient
    package let aws: AWSConfig
    package let verifier: AppStoreSignedDataVerifier
    /// Made on first use: the key's SSM parameter is read then (and again after a failed read).
    private var client: AppStoreServerAPIClient?

    /// Apple's share of a claim's time: it must leave the claim time to finish its own writes.
    package static let budgetMilliseconds: Int64 = 3_000
    package static let reserveMilliseconds: Int64 = 2_000

    package init(
        settings: AppStoreServerAPISettings, http: HTTPClient, aws: AWSConfig, verifier: AppStoreSignedDataVerifier
    ) {
        self.settings = settings
        self.http = http
        self.aws = aws
        self.verifier = verifier
    }

    /// The newest verified state Apple reports for `transaction`'s purchase (nil when none), and
    /// the word for the log.
    package func currentState(of transaction: AppStoreTransaction, deadline: Deadline) -> (PurchaseState?, String) {
        let budget = min(Self.budgetMilliseconds, deadline.remainingMilliseconds - Self.reserveMilliseconds)
        guard budget > 0 else { return (nil, "no time") }
        let mine = Deadline.after(milliseconds: budget)
        guard let client = client(deadline: mine) else { return (nil, "key unavailable") }
        let items: [AppStoreSubscriptionStatus]
        do throws(AppStoreServerAPIError) {
            items = try client.subscriptionStatuses(
                transactionID: transaction.originalTransactionId, sandbox: transaction.environment == .sandbox,
                deadline: mine)
        } catch {
            return (nil, error.description)
        }
        var newest: PurchaseState?
        for item in items {
            let found: (String, PurchaseState)?
            do throws(AppStoreSignedDataError) { found = try verified(item) } catch { return (nil, "unverified") }
            guard let (id, state) = found, id == transaction.originalTransactionId else { continue }
            newest = state.newer(newest)
        }
        return (newest, newest == nil ? "not listed" : "answered")
    }

    /// One item, verified: its purchase and state; nil when its parts name different purchases.
    package func verified(
        _ item: AppStoreSubscriptionStatus
    ) throws(AppStoreSignedDataError) -> (String, PurchaseState)? {
        let t = try verifier.verifyTransaction(item.signedTransactionInfo)
        let renewal = try item.signedRenewalInfo.map { (s: String) throws(AppStoreSignedDataError) in
            try verifier.verifyRenewalInfo(s)
        }
        if let renewal, renewal.originalTransactionId != t.originalTransactionId { return nil }
        if let claimed = item.originalTransactionId, claimed != t.originalTransactionId { return nil }
        let status: Subscription.Status
        switch item.status {
        case _ where t.revocationDate != nil: status = .revoked
        case 1: status = .active
        case 4: status = .grace
        case 5: status = .revoked
        case 2, 3: status = .expired  // billing retry without a grace period grants nothing
        default:
            status = PurchaseState(transaction: StorePurchase(t), nowMs: Clock.nowMilliseconds()).status
        }
        let state = PurchaseState(
            productID: t.productId, environment: t.environment.rawValue, status: status,
            purchaseDateMs: t.purchaseDate, expiresDateMs: t.expiresDate,
            gracePeriodExpiresDateMs: status == .grace ? renewal?.gracePeriodExpiresDate : nil,
            revocationDateMs: t.revocationDate, signedDateMs: t.signedDate)
        return (t.originalTransactionId, state)
    }

    private func client(deadline: Deadline) -> AppStoreServerAPIClient? {
        if let client { return client }
        let pem: String
        switch settings.keySource {
        case .pem(let text): pem = text
        case .parameter(let name):
            guard let text = try? SSMClient(http: http, config: aws).parameter(named: name, deadline: deadline) else {
                return nil
            }
            pem = text
        }
        client = try? AppStoreServerAPIClient(settings: settings, privateKeyPEM: pem, http: http)
        return client
    }
}
