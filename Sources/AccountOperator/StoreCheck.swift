import AccountDeletion
import AccountLinks
import AccountPurchases
import AccountSessions
import AccountStore
import AccountSuspensions

/// `authctl check [--repair]`: reads the accounts' own documents, identity files, claims,
/// deletion records and suspension records a page at a time, reports what disagrees, and with
/// `--repair` finishes what a stopped flow left, through the flows that own it (links for an
/// unfinished link or re-key, deletion for a stopped deletion, purchases for a claim of a deleted
/// account, suspensions for an entry that disagrees with its record).
package struct StoreCheck {
    package let store: AccountStore
    package let links: LinkFlow
    package let suspensions: SuspensionFlow
    package let deletion: DeletionFlow
    package let purchases: PurchaseFlow

    package init(
        store: AccountStore, links: LinkFlow, suspensions: SuspensionFlow, deletion: DeletionFlow,
        purchases: PurchaseFlow
    ) {
        self.store = store
        self.links = links
        self.suspensions = suspensions
        self.deletion = deletion
        self.purchases = purchases
    }
}
