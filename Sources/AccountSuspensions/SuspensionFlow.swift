import AccountStore

/// Google's suspension of a Google identity (`IdentitySuspension`): the record keyed by the
/// identity and its copy on the holding account's entry, written, applied and enforced. Below
/// links and sign-in, which apply it after every commit that makes a Google identity usable;
/// Google's events write it. Touches only the suspension record and the entry's suspension fields.
package struct SuspensionFlow {
    package let store: AccountStore

    package init(store: AccountStore) {
        self.store = store
    }
}
