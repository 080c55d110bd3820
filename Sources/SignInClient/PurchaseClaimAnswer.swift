/// auth-link `claimPurchase`: `claimed` or `already_claimed`.
public struct PurchaseClaimAnswer: Decodable, Sendable {
    public var status: String
    public var subscription: Subscription
    public var user: User
}
