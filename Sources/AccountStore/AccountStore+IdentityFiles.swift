import AWSClients
import AccountModel
import PlatformSupport

/// What an identity file says: the account it maps to and the link it was created by.
package struct IdentityMapping {
    package var uuid: String
    /// Nil for files written before link ids existed.
    package var linkID: String?
    /// The transfer a re-key's new identity file came from (contract v4); nil for every other file.
    package var transferSub: String? = nil
    /// As read (ETag and version, for a delete of exactly this file); nil for one not yet written.
    package var object: S3Object?

    package init(uuid: String, linkID: String? = nil, transferSub: String? = nil, object: S3Object? = nil) {
        self.uuid = uuid
        self.linkID = linkID
        self.transferSub = transferSub
        self.object = object
    }
}

extension AccountStore {
    /// The identity file (or purchase claim, the same UUID text without a link id) `object` read
    /// at `key`, or nil when there is none.
    package func mapping(_ object: S3Object?, key: String) throws(AccountError) -> IdentityMapping? {
        guard let object else { return nil }
        let text = String(decoding: object.body, as: UTF8.self)
        guard UUIDText.isCanonical(text) else {
            throw .corruptDocument(key: key, reason: "the file does not hold a UUID")
        }
        let linkID = object.metadata(AccountKeys.linkIDMetadata)
        if let linkID, !AccountKeys.isHexID(linkID) {
            throw .corruptDocument(key: key, reason: "identity file has a malformed link id")
        }
        let transferSub = object.metadata(AccountKeys.transferSubMetadata)
        if let transferSub, !AccountKeys.isValidProviderID(transferSub) {
            throw .corruptDocument(key: key, reason: "identity file has a malformed transfer identifier")
        }
        return IdentityMapping(uuid: text, linkID: linkID, transferSub: transferSub, object: object)
    }

    /// Creates the identity file (`If-None-Match: *`, never overwritten): the UUID as text, the
    /// link id as metadata.
    package func identityPut(_ key: String, uuid: String, linkID: String?, transferSub: String? = nil) -> S3Put {
        S3Put(
            key: key, body: Array(uuid.utf8), contentType: "text/plain", condition: .ifNoneMatch,
            metadata: (linkID.map { [(AccountKeys.linkIDMetadata, $0)] } ?? [])
                + (transferSub.map { [(AccountKeys.transferSubMetadata, $0)] } ?? []))
    }

    /// Deletes exactly the identity file that was read, never a newer one under the same key: by
    /// version in a versioned bucket (which also leaves no old version holding the UUID), else by
    /// `If-Match` on its ETag (which equals any re-creation for the same account; see
    /// docs/decisions/accounts-and-sessions.md, "Identity files are deleted by version").
    package func identityDelete(_ mapping: IdentityMapping) -> S3DeleteCondition {
        guard let object = mapping.object else { return .none }
        if let version = object.versionID { return .version(version) }
        return .ifMatch(object.etag)
    }

    /// Removes, best effort, a session record a sign-in wrote before it knew it would not answer
    /// with it (the identity file it read must be read again).
    package func discardSession(_ session: SessionRecord, deadline: Deadline) {
        _ = try? backend.delete(
            AccountKeys.session(session.serviceUserID, session.sessionID), .none, deadline: deadline)
    }

    /// Removes a stale identity file (exactly the version read) and, best effort, the session
    /// record this sign-in wrote before it knew.
    package func discard(
        _ m: IdentityMapping, key: String, session: SessionRecord?, deadline: Deadline
    ) throws(AccountError) {
        var round = Round()
        let file = round.delete(key, identityDelete(m))
        if let session { _ = round.delete(AccountKeys.session(session.serviceUserID, session.sessionID), .none) }
        _ = try backend.run(round, deadline: deadline).value(file)
    }
}
