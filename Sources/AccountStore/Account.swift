import AccountModel

/// A loaded account: the two documents with the ETags they were read at.
package struct Account: Sendable {
    package var profile: Profile
    package var profileETag: String
    package var providers: ProvidersDocument
    package var providersETag: String

    package var serviceUserID: String { profile.serviceUserID }

    package init(profile: Profile, profileETag: String, providers: ProvidersDocument, providersETag: String) {
        self.profile = profile
        self.profileETag = profileETag
        self.providers = providers
        self.providersETag = providersETag
    }
}
