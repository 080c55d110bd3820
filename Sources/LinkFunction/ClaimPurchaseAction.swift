import AccountModel
import AccountPurchases
import AccountSessions
import AppStoreSignedData
import AuthService
import PlatformSupport
import PurchaseModel

/// auth-link `claimPurchase`: tie an App Store purchase to the signed-in account (docs/API.md).
/// The signed transaction is verified here, as Apple's App Store Server Library does (signature,
/// chain to the configured roots at `signedDate`, OIDs, bundle, environment), and its product
/// must be one this deployment sells; then the account binds it.
package struct ClaimPurchaseAction: Action {
    package static let name = "claimPurchase"
    /// A StoreKit 2 `jwsRepresentation` holds three certificates: a few KiB; 64 KiB is generous.
    package static let maxSignedTransactionBytes = 64 * 1024

    package let refreshToken: String
    package let signedTransaction: String

    package init(_ request: Request) throws(ServiceError) {
        refreshToken = try request.refreshToken()
        signedTransaction = try request.requiredString(
            "signedTransaction", maxBytes: ClaimPurchaseAction.maxSignedTransactionBytes)
    }

    package func run(_ d: ServiceDependencies, deadline: Deadline) throws -> Answer {
        guard let verifier = d.storeVerifier, let products = d.configuration.purchases?.products else {
            throw ServiceError(.invalidRequest, "Purchases are not enabled in this deployment.")
        }
        let transaction = try verifier.verifyTransaction(signedTransaction)
        guard let product = products.product(transaction.productId) else {
            throw ServiceError(.invalidPurchase, "The purchase is for a product this deployment does not sell.")
        }
        // Apple is asked only once the claim is the account's (after authentication and the
        // claim file), so a refused claim costs no call to Apple.
        var apiOutcome: String?
        let outcome = try d.purchases.claimPurchase(
            token: refreshToken, purchase: StorePurchase(transaction), product: product, catalog: products,
            deadline: deadline
        ) { deadline in
            guard let lookup = d.storeStatus else { return nil }
            let (state, word) = lookup.currentState(of: transaction, deadline: deadline)
            apiOutcome = word
            return state
        }
        return .claimed(outcome, appStoreAPI: apiOutcome)
    }
}
