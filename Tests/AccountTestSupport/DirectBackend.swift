import AWSClients
import AccountDeletion
import AccountEvents
import AccountLinks
import AccountModel
import AccountOperator
import AccountPurchases
import AccountSessions
import AccountSignIn
import AccountStore
import AccountSuspensions
import AccountTransfer
import PlatformSupport

/// The account backend over `SimulatedS3`, one call after another, for unit tests that stage an
/// exact moment by hand: `intercept` runs before each call and may change the store (a racing
/// writer, even another whole operation) or decide what happens to the call.
package final class DirectBackend: AccountBackend {
    package enum Interception {
        case proceed
        /// Not applied; the call fails with this error.
        case fail(AWSError)
        /// Applied, the answer lost, the transport's retry answered against the new state.
        case appliedThenRetried
        /// Applied, every answer lost: the call fails although it took effect.
        case appliedButFailed
    }

    package let s3: SimulatedS3
    package var rounds = 0
    package var requests = 0
    package var intercept: ((AWSCall, SimulatedS3) -> Interception)?
    /// Applies each round's calls last to first (S3 may answer a round's requests in any order).
    package var applyRoundsBackwards = false
    private var intercepting = false

    package init(versioned: Bool = true) { s3 = SimulatedS3(versioned: versioned) }

    package static let outage = AWSError(kind: .unavailable, code: "SlowDown", message: "simulated outage", status: 503)

    package func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>] {
        rounds += 1
        if applyRoundsBackwards {
            applyRoundsBackwards = false
            defer { applyRoundsBackwards = true }
            return run(calls.reversed(), deadline: deadline).reversed().map { $0 }
        }
        return calls.map { call in
            requests += 1
            // An interceptor that runs another operation does so without being intercepted itself.
            guard !intercepting, let intercept else { return s3.apply(call) }
            intercepting = true
            let decision = intercept(call, s3)
            intercepting = false
            switch decision {
            case .proceed: return s3.apply(call)
            case .fail(let error): return .failure(error)
            case .appliedThenRetried:
                _ = s3.apply(call)
                return s3.apply(call)
            case .appliedButFailed:
                _ = s3.apply(call)
                return .failure(DirectBackend.outage)
            }
        }
    }

    /// Every version of every key, to prove an operation changed nothing.
    package var fingerprint: [String] {
        s3.history.keys.sorted().map { k in k + ":" + s3.history[k]!.map { $0.versionID }.joined(separator: ",") }
    }
}

extension AWSCall {
    package var key: String? {
        switch self {
        case .s3Get(let k): return k
        case .s3Put(let p): return p.key
        case .s3Delete(let k, _): return k
        case .s3List(let p, _): return p
        case .s3ListPage(let r): return r.prefix
        case .s3ListVersions(let p, _): return p
        case .s3DeleteVersions(let v): return v.first?.key
        case .s3DeleteListedVersion(let v): return v.key
        case .s3ListUploads(let p, _): return p
        case .s3AbortUpload(let u): return u.key
        case .assumeRole: return nil
        }
    }

    package var isWrite: Bool {
        switch self {
        case .s3Put, .s3Delete, .s3DeleteVersions, .s3DeleteListedVersion, .s3AbortUpload: return true
        default: return false
        }
    }
}
