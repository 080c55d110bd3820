import AccountLinks
import AccountSessions
import AccountStore

/// Moving the app to another Apple developer team (contract v4): `prepare` maps each Apple
/// identity to its transfer identifier and writes the transfer files; `complete` re-keys the
/// accounts as sign-in does, through the links.
package struct AppleTransferFlow {
    package let store: AccountStore
    package let links: LinkFlow

    package init(store: AccountStore, links: LinkFlow) {
        self.store = store
        self.links = links
    }
}
