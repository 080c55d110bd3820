/// Why an account is being deleted, as its deletion record keeps it (contract v4, "Notifications"):
/// the user or an operator asked, or Sign in with Apple's `account-delete` of the account's Apple
/// link. A deletion Apple's event started commits only while that Apple link is still the
/// account's only listed provider: checked inside the commit's conditional write, whoever commits
/// (the event, Apple's retry, the scheduled run). The record names the link by its link id, a
/// random value of this service's: no personal data.
package enum DeletionCause: Sendable, Equatable {
    /// `delete` from the app, or `authctl delete`: commits whatever the account lists.
    case requested
    /// Apple's `account-delete` of the Apple link with this id (nil: a link made before link ids).
    case appleAccountDelete(linkID: String?)

    /// Whether a deletion with this cause may commit on `doc` as it is now.
    package func allowsCommit(on doc: ProvidersDocument) -> Bool {
        switch self {
        case .requested: return true
        case .appleAccountDelete(let linkID):
            guard doc.providers.count == 1, let only = doc.providers.first, only.type == .apple else { return false }
            return linkID == nil || only.linkID == linkID
        }
    }

    /// A user's or operator's request outranks Apple's event: it commits whatever is linked.
    package var isRequested: Bool { self == .requested }

    package static let appleAccountDeleteName = "apple-account-delete"
}
