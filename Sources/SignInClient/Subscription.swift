import Foundation

/// The account's plan (`profile.json` `subscription`); purchase fields appear once one is claimed.
public struct Subscription: Codable, Sendable, Equatable {
    public var tier: String
    public var status: String?
    public var productID: String?
    public var originalTransactionId: String?
    public var environment: String?
    public var startDate: String?
    public var expiryDate: String?
    public var storageLimit: Int64?
    public var storageUsed: Int64?
}
