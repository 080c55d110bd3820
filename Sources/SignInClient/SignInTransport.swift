import Foundation

/// How a JSON event reaches a function. Throw `SignInError.offline`/`.timedOut` for "no answer"
/// (anything else thrown is treated as offline); never retry inside: the session decides retries.
public protocol SignInTransport: Sendable {
    func send(_ event: Data, to function: SignInFunction) async throws -> TransportAnswer
}
