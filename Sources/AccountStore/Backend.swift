import AWSClients
import AccountModel
import PlatformSupport

/// Runs the S3 and STS calls of one network round together (each with its own bounded retries)
/// and returns their outcomes in order. `AWSBatch` is the real one; the deterministic simulation
/// (Tests/AccountSimulationTests) runs its own over an in-memory S3.
package protocol AccountBackend: AnyObject {
    func run(_ calls: [AWSCall], deadline: Deadline) -> [Result<AWSCallOutcome, AWSError>]
}

extension AWSBatch: AccountBackend {}

/// The calls of one network round, each answered by name instead of by position:
///
///     var round = Round()
///     let profile = round.get(AccountKeys.profile(uuid))
///     let credentials = round.assumeRole(request)
///     let answers = backend.run(round, deadline: deadline)
///     let p = try answers.value(profile)
package struct Round {
    private(set) var calls: [AWSCall] = []

    /// One call's place in the round and how to read its outcome.
    package struct Slot<Value> {
        package let index: Int
        package let read: (AWSCallOutcome) -> Value?
    }

    package var isEmpty: Bool { calls.isEmpty }

    package mutating func get(_ key: String) -> Slot<S3Object?> {
        add(.s3Get(key: key)) { if case .object(let o) = $0 { return .some(o) } else { return nil } }
    }

    package mutating func put(_ put: S3Put) -> Slot<S3PutOutcome> {
        add(.s3Put(put)) { if case .stored(let s) = $0 { return s } else { return nil } }
    }

    package mutating func delete(_ key: String, _ condition: S3DeleteCondition) -> Slot<S3DeleteOutcome> {
        add(.s3Delete(key: key, condition: condition)) { if case .deleted(let d) = $0 { return d } else { return nil } }
    }

    package mutating func list(_ prefix: String, after startAfter: String? = nil) -> Slot<S3Listing> {
        add(.s3List(prefix: prefix, startAfter: startAfter)) {
            if case .listing(let l) = $0 { return l } else { return nil }
        }
    }

    package mutating func listPage(_ request: S3ListRequest) -> Slot<S3Listing> {
        add(.s3ListPage(request)) { if case .listing(let l) = $0 { return l } else { return nil } }
    }

    package mutating func listVersions(
        _ prefix: String, after marker: S3VersionListing.Marker?
    ) -> Slot<S3VersionListing> {
        add(.s3ListVersions(prefix: prefix, after: marker)) {
            if case .versions(let v) = $0 { return v } else { return nil }
        }
    }

    package mutating func deleteVersions(_ versions: [S3ObjectVersion]) -> Slot<S3BatchDeleteOutcome> {
        add(.s3DeleteVersions(versions)) { if case .deletedVersions(let d) = $0 { return d } else { return nil } }
    }

    package mutating func deleteListedVersion(_ version: S3ObjectVersion) -> Slot<S3DeleteOutcome> {
        add(.s3DeleteListedVersion(version)) { if case .deleted(let d) = $0 { return d } else { return nil } }
    }

    package mutating func listUploads(_ prefix: String, after marker: S3Upload?) -> Slot<S3UploadListing> {
        add(.s3ListUploads(prefix: prefix, after: marker)) {
            if case .uploads(let u) = $0 { return u } else { return nil }
        }
    }

    package mutating func abortUpload(_ upload: S3Upload) -> Slot<S3DeleteOutcome> {
        add(.s3AbortUpload(upload)) { if case .deleted(let d) = $0 { return d } else { return nil } }
    }

    package mutating func assumeRole(_ request: AssumeRoleRequest) -> Slot<TemporaryCredentials> {
        add(.assumeRole(request)) { if case .credentials(let c) = $0 { return c } else { return nil } }
    }

    private mutating func add<Value>(_ call: AWSCall, _ read: @escaping (AWSCallOutcome) -> Value?) -> Slot<Value> {
        calls.append(call)
        return Slot(index: calls.count - 1, read: read)
    }

    package init() {}
}

/// The outcomes of a round, read through the slots that asked for them.
package struct RoundAnswers {
    package let results: [Result<AWSCallOutcome, AWSError>]

    package func value<Value>(_ slot: Round.Slot<Value>) throws(AccountError) -> Value {
        switch results[slot.index] {
        case .failure(let error): throw .upstream(error)
        case .success(let outcome):
            guard let value = slot.read(outcome) else {
                throw .internalError("the backend answered a call with another kind of outcome")
            }
            return value
        }
    }

    /// Whether the call succeeded; for best-effort calls whose failure changes nothing.
    package func succeeded<Value>(_ slot: Round.Slot<Value>) -> Bool {
        if case .success = results[slot.index] { return true }
        return false
    }
}

extension AccountBackend {
    package func run(_ round: Round, deadline: Deadline) -> RoundAnswers {
        RoundAnswers(results: round.isEmpty ? [] : run(round.calls, deadline: deadline))
    }

    package func get(_ key: String, deadline: Deadline) throws(AccountError) -> S3Object? {
        var round = Round()
        let slot = round.get(key)
        return try run(round, deadline: deadline).value(slot)
    }

    package func put(_ put: S3Put, deadline: Deadline) throws(AccountError) -> S3PutOutcome {
        var round = Round()
        let slot = round.put(put)
        return try run(round, deadline: deadline).value(slot)
    }

    package func delete(
        _ key: String, _ condition: S3DeleteCondition, deadline: Deadline
    ) throws(AccountError) -> S3DeleteOutcome {
        var round = Round()
        let slot = round.delete(key, condition)
        return try run(round, deadline: deadline).value(slot)
    }
}
