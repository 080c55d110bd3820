import Foundation

/// One answer: the Function URL's HTTP status (nil for a direct Lambda invoke, whose payload is
/// the envelope itself) and the body.
public struct TransportAnswer: Sendable {
    public var statusCode: Int?
    public var body: Data
    public init(statusCode: Int?, body: Data) {
        self.statusCode = statusCode
        self.body = body
    }
}
