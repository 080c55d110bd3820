import AWSClients
import CurlHTTP
@testable import AccountDomain

/// The account backend over `SimulatedS3`, one call after another, for unit tests that stage an
/// exact moment by hand: `intercept` runs before each call and may change the store (a racing
/// writer) or answer with a fault instead of applying the call.
final class DirectBackend: AccountBackend {
    let s3: SimulatedS3
    var rounds = 0
    var requests = 0
    var intercept: ((AWSCall, SimulatedS3) -> AWSError?)?

    init(versioned: Bool = true) { s3 = SimulatedS3(versioned: versioned) }

    func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] {
        rounds += 1
        return calls.map { call in
            requests += 1
            if let fault = intercept?(call, s3) { return .failure(fault) }
            return s3.apply(call)
        }
    }
}
