/// The contract's stable `error.code` values. A struct, not an enum: a newer deployment may add a
/// code, and an older app must still carry it (its recommendation is then "retry later").
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let invalidRequest = ErrorCode(rawValue: "INVALID_REQUEST")
    public static let unsupportedProvider = ErrorCode(rawValue: "UNSUPPORTED_PROVIDER")
    public static let invalidToken = ErrorCode(rawValue: "INVALID_TOKEN")
    public static let tokenExpired = ErrorCode(rawValue: "TOKEN_EXPIRED")
    public static let accountNotFound = ErrorCode(rawValue: "ACCOUNT_NOT_FOUND")
    public static let accountAlreadyExists = ErrorCode(rawValue: "ACCOUNT_ALREADY_EXISTS")
    public static let providerAlreadyLinked = ErrorCode(rawValue: "PROVIDER_ALREADY_LINKED")
    public static let providerNotLinked = ErrorCode(rawValue: "PROVIDER_NOT_LINKED")
    public static let lastProvider = ErrorCode(rawValue: "LAST_PROVIDER")
    public static let sessionInvalid = ErrorCode(rawValue: "SESSION_INVALID")
    public static let reauthenticationRequired = ErrorCode(rawValue: "REAUTHENTICATION_REQUIRED")
    public static let conflict = ErrorCode(rawValue: "CONFLICT")
    public static let purchaseBelongsToOtherAccount = ErrorCode(rawValue: "PURCHASE_BELONGS_TO_OTHER_ACCOUNT")
    public static let invalidPurchase = ErrorCode(rawValue: "INVALID_PURCHASE")
    public static let accountDisabled = ErrorCode(rawValue: "ACCOUNT_DISABLED")
    /// (v4) Sign-in or link with a Google identity Google reported hijacked or disabled.
    public static let identitySuspended = ErrorCode(rawValue: "IDENTITY_SUSPENDED")
    public static let upstreamUnavailable = ErrorCode(rawValue: "UPSTREAM_UNAVAILABLE")

    /// Every code of contract v4, in the contract's order (the OpenAPI test checks the list).
    public static let all: [ErrorCode] = [
        .invalidRequest, .unsupportedProvider, .invalidToken, .tokenExpired, .accountNotFound,
        .accountAlreadyExists, .providerAlreadyLinked, .providerNotLinked, .lastProvider, .sessionInvalid,
        .reauthenticationRequired, .conflict, .purchaseBelongsToOtherAccount, .invalidPurchase, .accountDisabled,
        .identitySuspended, .upstreamUnavailable,
    ]
}
