import AccountModel
import AccountStore
import PlatformSupport
import TokenVerification

/// How an operator names an account (docs/operations.md): `apple:<sub>`, `google:<sub>`,
/// `firebase:<sub>`, the UUID itself, or `purchase:<originalTransactionId>`.
package enum AccountReference: Sendable, Equatable {
    case identity(IdentityProvider, String)
    case uuid(String)
    case purchase(String)

    package init?(_ text: String) {
        if UUIDText.isCanonical(text) {
            self = .uuid(text)
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let kind = String(text[..<colon]), value = String(text[text.index(after: colon)...])
        if kind == "purchase" {
            guard (1...64).contains(value.utf8.count), value.utf8.allSatisfy(ASCII.isDigit) else { return nil }
            self = .purchase(value)
        } else if let provider = IdentityProvider(rawValue: kind), AccountKeys.isValidProviderID(value) {
            self = .identity(provider, value)
        } else {
            return nil
        }
    }

    /// The file that maps this reference to an account (nil for a UUID: it names one itself).
    package var mappingKey: String? {
        switch self {
        case .identity(let provider, let sub): return AccountKeys.identity(provider, sub)
        case .purchase(let id): return AccountKeys.purchaseClaim(id)
        case .uuid: return nil
        }
    }
}
