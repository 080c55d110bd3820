import AWSClients
import AccountTestSupport
import PlatformSupport
import Testing

/// Issue 23, defect 1 (the class): one key or upload that cannot be removed never blocks the
/// others. It is isolated (tried on its own, the pass goes on), counted in the deletion record
/// (`purge.keysFailed`, no key names), and retried by the scheduled run. On main one refused
/// abort threw out of the pass before any version was deleted, on every run.
@Suite struct PurgeTests {
    static let refused = AWSError(kind: .accessDenied, code: "AccessDenied", message: "simulated 403", status: 403)

    /// An account with ordinary photos, a key XML cannot carry (deleted on its own) and an
    /// unfinished upload under a `..` key (aborted by its path).
    func account(_ f: AccountFixture) throws -> (SignInOutcome, odd: String, upload: S3Upload) {
        let up = try f.signUp()
        let prefix = AccountKeys.userPrefix(up.account.serviceUserID)
        for i in 0..<20 { f.s3.store(prefix + "photos/\(i).jpg", [1], contentType: "image/jpeg") }
        let odd = prefix + "photos/ctl\u{1}/../x.jpg"
        f.s3.store(odd, [1], contentType: "image/jpeg")
        return (up, odd, f.s3.startUpload(prefix + "photos/../video.mov"))
    }

    @Test func aKeyAndAnUploadThatCannotBeRemovedAreCountedAndRetriedWhileTheRestGoes() throws {
        let f = AccountFixture()
        let (up, odd, upload) = try account(f)
        let uuid = up.account.serviceUserID
        var failing = true
        f.backend.intercept = { call, _ in
            guard failing else { return .proceed }
            switch call {
            case .s3AbortUpload(let u) where u == upload: return .fail(Self.refused)
            case .s3DeleteListedVersion(let v) where v.key == odd: return .fail(Self.refused)
            default: return .proceed
            }
        }
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(!out.purgeComplete)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 1, "only the refused key is left")
        #expect(f.s3.uploads == [upload], "only the refused upload is left")
        var record = try #require(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:)))
        #expect(record.keysFailed == 2 && !record.purgeComplete)
        #expect(!record.json.serializedString().contains("photos"), "the record names no key")
        // Still refused at the next run: counted again, still pending.
        #expect(try f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none).pending == 1)
        // Then S3 takes them: the run finishes the purge and the count goes back to 0.
        failing = false
        _ = try f.service.deletion.runScheduledDeletions(purgeUntil: .none, deadline: .none)
        record = try #require(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:)))
        #expect(record.purgeComplete && record.keysFailed == 0)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 0 && f.s3.uploads.isEmpty)
    }

    /// A batch S3 refuses as a whole for what it holds goes again one version at a time: only the
    /// key S3 refuses stays. An outage (5xx) ends the pass instead: the next one goes on.
    @Test func aBatchRefusedForWhatItHoldsIsSentAgainOneByOne() throws {
        let f = AccountFixture()
        let (up, odd, upload) = try account(f)
        let uuid = up.account.serviceUserID
        let stubborn = AccountKeys.userPrefix(uuid) + "photos/7.jpg"
        _ = f.s3.apply(.s3AbortUpload(upload))
        f.backend.intercept = { call, _ in
            switch call {
            case .s3DeleteVersions:
                return .fail(AWSError(kind: .invalidRequest, code: "MalformedXML", message: "simulated", status: 400))
            case .s3DeleteListedVersion(let v) where v.key == stubborn: return .fail(Self.refused)
            default: return .proceed
            }
        }
        let out = try f.service.deletion.deleteAccount(
            token: up.session.refreshToken.value, purgeUntil: .none, deadline: .none)
        #expect(!out.purgeComplete && f.s3.current(odd) == nil)
        #expect(f.s3.versions(under: AccountKeys.userPrefix(uuid)) == 1 && f.s3.current(stubborn) != nil)
        #expect(f.s3.json(AccountKeys.deletion(uuid)).flatMap(DeletionRecord.init(json:))?.keysFailed == 1)
        f.backend.intercept = { call, _ in
            if case .s3DeleteVersions = call { return .fail(DirectBackend.outage) }
            return .proceed
        }
        #expect(throws: AccountError.self, "an outage ends the pass") {
            _ = try f.service.deletion.purge(uuid, until: .none, deadline: .none)
        }
    }
}
