import Foundation

/// A successful answer's payload with the server's time (`meta.timestamp`), nil when it had none.
struct Decoded<Payload: Sendable>: Sendable {
    var payload: Payload
    var serverTime: Date?
}
