import AWSClients
import AccountModel
import PlatformSupport
import StrictJSON

/// Reads that note a failure instead of ending the caller (the operator's check, a transfer's
/// work list): documents by key, `sessionsPerRound` at a time, each decoded or said unreadable.
extension AccountStore {
    /// GETs of `keys`, `sessionsPerRound` at a time: each key with its object (nil: none) or why
    /// it could not be read.
    package func readEach(_ keys: [String], deadline: Deadline) -> [(String, Result<S3Object?, AccountError>)] {
        var out: [(String, Result<S3Object?, AccountError>)] = []
        for start in stride(from: 0, to: keys.count, by: AccountStore.sessionsPerRound) {
            let chunk = Array(keys[start..<min(start + AccountStore.sessionsPerRound, keys.count)])
            var round = Round()
            let slots = chunk.map { round.get($0) }
            let answers = backend.run(round, deadline: deadline)
            for (key, slot) in zip(chunk, slots) {
                do throws(AccountError) { out.append((key, .success(try answers.value(slot)))) } catch {
                    out.append((key, .failure(error)))
                }
            }
        }
        return out
    }

    /// A stored document decoded by `make`, or why not.
    package func stored<T>(_ object: S3Object?, key: String, _ make: (JSONValue) -> T?) -> StoredDocument<T> {
        guard let object else { return .absent }
        do throws(AccountError) { return .present(try decodeDocument(object.body, key: key, make)) } catch {
            return .unreadable(error.brief)
        }
    }

    /// An identity file or claim, or why it is unreadable.
    package func storedMapping(_ object: S3Object?, key: String) -> StoredDocument<IdentityMapping> {
        do throws(AccountError) { return try mapping(object, key: key).map { .present($0) } ?? .absent } catch {
            return .unreadable(error.brief)
        }
    }

    /// The account a `users/<uuid>/` common prefix names, if it is one.
    package static func account(ofPrefix prefix: String) -> String? {
        let parts = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "users", parts[2].isEmpty, UUIDText.isCanonical(String(parts[1])) else {
            return nil
        }
        return String(parts[1])
    }

    /// The account a `deletions/<uuid>.json` key names, if it is one.
    package static func account(ofDeletionKey key: String) -> String? {
        guard key.hasPrefix(AccountKeys.deletionsPrefix), key.hasSuffix(".json") else { return nil }
        let uuid = String(key.dropFirst(AccountKeys.deletionsPrefix.count).dropLast(5))
        return UUIDText.isCanonical(uuid) ? uuid : nil
    }
}
