import AWSClients
import AccountModel
import AccountStore
import CryptoPrimitives
import PlatformSupport
import StrictJSON
import TokenVerification

/// TODO-DOC
package struct SuspensionFlow {
    package let store: AccountStore

    package init(store: AccountStore) {
        self.store = store
    }
}
