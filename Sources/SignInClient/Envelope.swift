import Foundation

/// The contract's envelope: `{"success", "data" | "error", "meta"}`, the same whether it came as a
/// Function URL body or as a direct invoke's payload.
struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
    struct Failure: Decodable, Sendable {
        var code: String
        var message: String
    }
    struct Meta: Decodable, Sendable {
        var requestId: String?
        /// When the function answered (ISO-8601 UTC): the server's clock, which judges expiry.
        var timestamp: String?
    }
    var success: Bool
    var data: Payload?
    var error: Failure?
    var meta: Meta?
}
