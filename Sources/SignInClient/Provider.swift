/// What the app sends to the three functions: one type per function, the fields of the contract's
/// events (docs/API.md). Optional fields that are nil are left out of the JSON.
public enum Provider: String, Codable, Sendable, Hashable, CaseIterable {
    case apple, google, firebase
}
