import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

/// `check` and its repairs over the in-memory S3 (the integration tests plant one break of each
/// kind against moto; these pin the walk's cost, its completeness and the repairs' re-reads).
@Suite struct StoreCheckTests {
    func plant(_ f: AccountFixture, _ calls: [AWSCall]) {
        for r in f.backend.run(calls, deadline: .none) {
            if case .failure(let e) = r { Issue.record("set-up: \(e)") }
        }
    }

    func staleFile(_ uuid: String, _ sub: String = "555") -> AWSCall {
        .s3Put(
            S3Put(
                key: AccountKeys.identity(.google, sub), body: Array(uuid.utf8), contentType: "text/plain",
                condition: .ifNoneMatch, metadata: [(AccountKeys.linkIDMetadata, String(repeating: "a", count: 32))]))
    }

    func kinds(_ r: StoreCheckReport) -> [StoreFinding.Kind] {
        r.findings.map(\.kind).sorted { $0.rawValue < $1.rawValue }
    }

    @Test func checkFindsPlantedBreaksAndRepairLeavesNone() throws {
        let f = AccountFixture()
        let a = try f.signUp()
        let b = try f.signUp(AccountFixture.google("444"))
        let uuidA = a.account.serviceUserID, uuidB = b.account.serviceUserID
        plant(f, [staleFile(uuidA), .s3Delete(key: AccountKeys.profile(uuidB), condition: .none)])
        let found = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(kinds(found) == [.halfMadeAccount, .staleIdentityFile] && found.complete)
        // One page each of identities/, identities/apple-transfer/, purchases/apple/, deletions/,
        // suspensions/google/ and users/.
        #expect(found.accounts == 2 && found.identityFiles == 3 && found.pages == 6)
        let repaired = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(repaired.findings.allSatisfy { $0.repaired == true })
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty)
        #expect(f.s3.current(AccountKeys.identity(.google, "555")) == nil)
        #expect(f.s3.current(AccountKeys.profile(uuidB)) != nil)
        _ = try f.service.sessions.refresh(token: b.session.refreshToken.value, deadline: .none)
    }

    /// Issue 23 (12): the walk listed users/ and so every photo key; 2,500 photos took it from 4
    /// pages to 6. Now the requests are the same with no photos and with thousands.
    @Test func theRequestsDoNotGrowWithThePhotos() throws {
        let f = AccountFixture()
        let uuids = try (0..<3).map { try f.signUp(AccountFixture.google("70\($0)")).account.serviceUserID }
        f.backend.requests = 0
        let bare = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        let bareRequests = f.backend.requests
        for uuid in uuids {
            for n in 0..<1_200 { f.s3.store("users/\(uuid)/photos/p\(n).jpg", [1], contentType: "image/jpeg") }
        }
        f.backend.requests = 0
        let full = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(bare.findings.isEmpty && full.findings.isEmpty && full.complete)
        #expect(
            f.backend.requests == bareRequests && full.pages == bare.pages, "\(f.backend.requests) vs \(bareRequests)")
        #expect(full.accounts == 3)
    }

    /// A listing cut short (the page limit) leaves the check incomplete and repairs nothing,
    /// and never reports the accounts past the cut as missing.
    @Test func aListingCutIsIncompleteAndRepairsNothing() throws {
        let f = AccountFixture()
        let uuids = try (0..<4).map { try f.signUp(AccountFixture.google("80\($0)")).account.serviceUserID }
        plant(f, [staleFile(uuids[3])])
        let before = f.backend.fingerprint
        let cut = f.service.storeCheck.checkStore(
            StoreCheckOptions(repair: true, maxPages: 2, pageSize: 1), deadline: .none)
        #expect(!cut.complete && cut.repairsWithheld && cut.unchecked.contains { $0.contains("page limit") })
        #expect(cut.findings.allSatisfy { $0.repaired == nil }, "nothing repaired")
        #expect(
            !cut.findings.contains { [.identityNamesMissingAccount, .halfMadeAccount].contains($0.kind) },
            "accounts past the cut are not missing: \(cut.findings)")
        #expect(f.backend.fingerprint == before, "a cut walk wrote")
        let whole = f.service.storeCheck.checkStore(StoreCheckOptions(repair: false, pageSize: 1), deadline: .none)
        #expect(whole.complete && kinds(whole) == [.staleIdentityFile])
    }

    /// One unreadable document is a finding, and the rest of the bucket is still checked.
    @Test func anUnreadableDocumentIsAFindingAndTheCheckGoesOn() throws {
        let f = AccountFixture()
        let a = try f.signUp(AccountFixture.google("901")).account.serviceUserID
        let b = try f.signUp(AccountFixture.google("902")).account.serviceUserID
        f.s3.store(AccountKeys.providers(a), Array("{not json".utf8))
        f.s3.store(AccountKeys.deletion(b), Array("[]".utf8))
        plant(f, [staleFile(b)])
        let report = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(report.complete)
        #expect(
            report.findings.filter { $0.kind == .unreadableDocument }.map(\.key).sorted()
                == [AccountKeys.deletion(b), AccountKeys.providers(a)].sorted())
        #expect(report.findings.contains { $0.kind == .staleIdentityFile && $0.repaired == true })
        #expect(report.findings.filter { $0.kind == .unreadableDocument }.allSatisfy { $0.repaired == nil })
    }

    /// The repair re-reads what it repairs: an account that looked missing in the walk and is
    /// complete by the time it is repaired gets no write (main PUT its markers unconditionally).
    @Test func aBreakGoneByTheRepairIsNotWrittenAgain() throws {
        let f = AccountFixture()
        let up = try f.signUp(AccountFixture.google("903"))
        let uuid = up.account.serviceUserID
        let saved = AccountKeys.markers(uuid) + [AccountKeys.profile(uuid), AccountKeys.providers(uuid)]
        let bodies = saved.map { ($0, f.s3.current($0)!) }
        // A sign-up right after its commit point: the identity file, none of the rest.
        for key in saved { _ = f.s3.apply(.s3Delete(key: key, condition: .none)) }
        var restored = false
        let report = f.service.storeCheck.checkStore(
            StoreCheckOptions(repair: true), deadline: .none,
            progress: { line in
                guard line.hasPrefix("repairing"), !restored else { return }
                restored = true  // the sign-up finishes while check is between its walk and its repair
                for (key, v) in bodies { f.s3.store(key, v.body, contentType: v.contentType, metadata: v.metadata) }
            })
        let versions = saved.map { f.s3.history[$0]?.count ?? 0 }
        #expect(restored && report.findings.map(\.kind) == [.identityNamesMissingAccount])
        #expect(report.findings[0].repaired == true && report.findings[0].note == "no longer broken when re-read")
        #expect(saved.map { f.s3.history[$0]?.count ?? 0 } == versions && versions.allSatisfy { $0 == 3 })
    }

    /// Simulation seed 17078: a link of the identity that lands between the repair's re-read of
    /// providers.json and of the file (one round, the document first) had its new file deleted as
    /// stale, and the account listed an identity with no file. The repair reads the file first.
    @Test func aLinkLandingDuringTheRepairKeepsItsNewFile() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        let key = AccountKeys.identity(.google, "777")
        plant(f, [staleFile(uuid, "777")])
        var repairing = false, linked = false
        f.backend.intercept = { call, s3 in
            guard repairing, !linked, case .s3Get(let got) = call, got == key else { return .proceed }
            linked = true  // the leftover goes (an unlink's retry), and a new link of the identity lands
            _ = s3.apply(.s3Delete(key: key, condition: .none))
            _ = try? f.service.links.link(
                token: up.session.refreshToken.value, identity: AccountFixture.google("777"), deadline: .none)
            return .proceed
        }
        let report = f.service.storeCheck.checkStore(
            StoreCheckOptions(repair: true), deadline: .none,
            progress: { line in if line.hasPrefix("repairing") { repairing = true } })
        #expect(linked && report.findings.map(\.kind) == [.staleIdentityFile])
        let providers = try #require(f.providers(uuid))
        #expect(providers.providers.contains { $0.type == .google && $0.id == "777" }, "the new link is listed")
        #expect(f.s3.current(key) != nil, "and its identity file is there")
        #expect(f.service.storeCheck.checkStore(repair: false, deadline: .none).findings.isEmpty)
    }

    /// A deletion record whose purge could not remove some keys (`purge.keysFailed`) is reported.
    @Test func aDeletionWithKeysItCouldNotRemoveIsReported() throws {
        let f = AccountFixture()
        let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
        var record = DeletionRecord(serviceUserID: uuid, requestedAtMs: f.nowMs)
        record.committedAtMs = f.nowMs
        record.mappingsRemoved = true
        var o = try #require(record.json.objectValue)
        var purge = try #require(o["purge"]?.objectValue)
        purge["keysFailed"] = .int(2)
        o["purge"] = .object(purge)
        f.s3.store(AccountKeys.deletion(uuid), Array(JSONValue.object(o).serializedString().utf8))
        let report = f.service.storeCheck.checkStore(repair: false, deadline: .none)
        #expect(report.findings.map(\.kind) == [.purgeKeysFailed] && report.findings[0].serviceUserID == uuid)
    }
}
