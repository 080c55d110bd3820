import AWSClients
import AccountTestSupport
import PlatformSupport
import StrictJSON
import Testing

/// An operator's disable landing between an action's read of the account and its commit
/// (simulation seed 487 on the i25-risc branch: a link read the account before `authctl disable`
/// and wrote providers.json after it; a claim wrote its claim file and profile after it). Each
/// action is raced with the disable just before its k-th call, for every k: it either answers
/// ACCOUNT_DISABLED with the account's links, purchases and mapping files as they were, or it
/// succeeds and its commit is stored before the disable.
@Suite struct DisabledRacesTests {
    static let disable = AccountDisable(reason: "abuse", atMs: 1_800_000_000_000, by: "arn:aws:iam::1:user/ops")
    static let google = AccountFixture.google()
    static let googleKey = AccountKeys.identity(.google, google.subject)
    static let purchaseID = "2000000100000001"
    let product = ProductCatalog.Product(tier: "premium", storageLimit: 1_099_511_627_776)

    /// What a link, unlink or claim may change of an account.
    struct Linkage: Equatable {
        var providers: [String]
        var pending: [String]
        var retired: [String]
        var purchases: [String]
        var subscription: String
        /// The identity files and purchase claims naming the account.
        var files: [String]
    }

    static func linkage(_ f: AccountFixture, _ uuid: String) -> Linkage {
        let doc = f.providers(uuid)
        let profile = f.s3.json(AccountKeys.profile(uuid)).flatMap(Profile.init(json:))
        return Linkage(
            providers: doc?.providers.map { "\($0.type.rawValue):\($0.id)" } ?? [],
            pending: doc?.pending.map { "\($0.type.rawValue):\($0.id)" } ?? [],
            retired: doc?.retired.map { "\($0.type.rawValue):\($0.id)" } ?? [],
            purchases: doc?.purchases ?? [], subscription: "\(profile.map { "\($0.subscription)" } ?? "")",
            files: f.s3.keys.filter {
                ($0.hasPrefix("identities/") || $0.hasPrefix("purchases/apple/")) && f.s3.text($0) == uuid
            })
    }

    /// The global order of a version (SimulatedS3 numbers every write, whatever the key).
    static func order(_ v: SimulatedS3.Version) -> Int { Int(v.versionID.dropFirst())! }

    /// When the disable was stored: the first providers.json version that carries it.
    static func disabledAt(_ f: AccountFixture, _ uuid: String) -> Int? {
        f.s3.history[AccountKeys.providers(uuid)]?.first {
            ProvidersDocumentJSON.decode($0.body)?.isDisabled == true
        }.map(order)
    }

    /// Races `action` with the disable before each of its calls in turn. `setUp` makes a fresh
    /// account (answering its id and the session's token); `committedAt` names the version that is
    /// the action's commit once it succeeded (a write of its own). A refused action may leave what `uncommitted` drops
    /// (a link's withdrawn claim, retired); `afterEnable` runs after enabling the account again.
    func raceDisable(
        _ name: String, setUp: () throws -> (AccountFixture, String, String),
        action: (AccountFixture, String, String) throws -> Void, committedAt: (AccountFixture, String) -> Int?,
        uncommitted: (Linkage) -> Linkage = { $0 },
        afterEnable: ((AccountFixture, String, String) throws -> Void)? = nil
    ) throws {
        var refused = 0
        for k in 0..<200 {
            let (f, uuid, token) = try setUp()
            let before = Self.linkage(f, uuid)
            let start = f.s3.history.values.joined().map(Self.order).max() ?? 0
            var calls = 0
            f.backend.intercept = { _, _ in
                if calls == k { _ = try? f.service.operatorFlow.setDisabled(uuid, Self.disable, deadline: .none) }
                calls += 1
                return .proceed
            }
            let error = accountError { try action(f, uuid, token) }
            f.backend.intercept = nil
            if calls <= k {
                #expect(error == nil, "\(name) without a disable answered \(error ?? "")")
                #expect(refused > 0, "\(name): no interleaving refused")
                return
            }
            if let error {
                refused += 1
                #expect(error == "accountDisabled", "\(name), disable before call \(k): answered \(error)")
                #expect(
                    uncommitted(Self.linkage(f, uuid)) == uncommitted(before),
                    "\(name), disable before call \(k): changed the account")
                if let afterEnable {
                    #expect(try f.service.operatorFlow.setDisabled(uuid, nil, deadline: .none))
                    try afterEnable(f, uuid, token)
                }
            } else {
                // Its commit is a write of this action's (after `start`), stored before the disable.
                let commit = committedAt(f, uuid), disabled = Self.disabledAt(f, uuid)
                #expect(
                    commit != nil && disabled != nil && start < commit! && commit! < disabled!,
                    "\(name), disable before call \(k): succeeded, committed at \(commit ?? -1) (started after \(start)), the disable at \(disabled ?? -1)"
                )
            }
        }
        Issue.record("\(name) made more than 200 calls")
    }

    @Test func aLinkCommitsOnlyBeforeADisable() throws {
        try raceDisable(
            "link",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                return (f, up.account.serviceUserID, up.session.refreshToken.value)
            },
            action: { f, _, token in _ = try f.service.links.link(token: token, identity: Self.google, deadline: .none)
            },
            committedAt: { f, uuid in
                f.s3.history[AccountKeys.providers(uuid)]?.first {
                    ProvidersDocumentJSON.decode($0.body)?.index(of: .google, id: Self.google.subject) != nil
                }.map(Self.order)
            },
            uncommitted: {
                var l = $0
                l.retired.removeAll { $0 == "google:\(Self.google.subject)" }  // the claim it withdrew
                return l
            },
            afterEnable: { f, uuid, token in
                // The user tries again once support has enabled the account: linked, one file.
                let out = try f.service.links.link(token: token, identity: Self.google, deadline: .none)
                #expect(out.status == .linked && f.providers(uuid)?.pending == [])
                #expect(f.s3.text(Self.googleKey) == uuid)
            })
    }

    @Test func anUnlinkCommitsOnlyBeforeADisable() throws {
        try raceDisable(
            "unlink",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                _ = try f.service.links.link(
                    token: up.session.refreshToken.value, identity: Self.google, deadline: .none)
                return (f, up.account.serviceUserID, up.session.refreshToken.value)
            },
            action: { f, _, token in _ = try f.service.links.unlink(token: token, provider: .google, deadline: .none) },
            committedAt: { f, uuid in
                f.s3.history[AccountKeys.providers(uuid)]?.first {
                    ProvidersDocumentJSON.decode($0.body)?.retired.contains { $0.type == .google } == true
                }.map(Self.order)
            })
    }

    func claim(_ f: AccountFixture, _ token: String) throws {
        let purchase = StorePurchase(
            originalTransactionID: Self.purchaseID, productID: "com.example.photos.premium",
            environment: "Production", appAccountToken: nil, purchaseDateMs: f.nowMs - 1_000,
            expiresDateMs: f.nowMs + 86_400_000, revocationDateMs: nil, signedDateMs: f.nowMs)
        _ = try f.service.purchases.claimPurchase(token: token, purchase: purchase, product: product, deadline: .none)
    }

    /// The claim's commit: its providers.json write listing the purchase (or writing the listing
    /// again) last before its claim file; the disable's write lists it too, but disabled.
    static func claimCommit(_ f: AccountFixture, _ uuid: String) -> Int? {
        guard let file = f.s3.history[AccountKeys.purchaseClaim(purchaseID)]?.first.map(order) else { return nil }
        return f.s3.history[AccountKeys.providers(uuid)]?.filter {
            let doc = ProvidersDocumentJSON.decode($0.body)
            return order($0) < file && doc?.purchases.contains(purchaseID) == true && doc?.isDisabled == false
        }.map(order).max()
    }

    @Test func aClaimCommitsOnlyBeforeADisable() throws {
        try raceDisable(
            "claimPurchase",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                return (f, up.account.serviceUserID, up.session.refreshToken.value)
            },
            action: { f, _, token in try claim(f, token) }, committedAt: Self.claimCommit)
    }

    /// A claim that stopped after its listing, before its claim file: the next claim finds the
    /// purchase listed and still decides on the account in a write of its own.
    @Test func aClaimFinishingAStoppedOneCommitsOnlyBeforeADisable() throws {
        try raceDisable(
            "claimPurchase after a stopped one",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                let token = up.session.refreshToken.value
                f.backend.intercept = { call, _ in
                    guard case .s3Put(let put) = call, put.key == AccountKeys.purchaseClaim(Self.purchaseID) else {
                        return .proceed
                    }
                    return .fail(DirectBackend.outage)
                }
                _ = accountError { try claim(f, token) }
                f.backend.intercept = nil
                #expect(f.providers(up.account.serviceUserID)?.purchases == [Self.purchaseID])
                return (f, up.account.serviceUserID, token)
            },
            action: { f, _, token in try claim(f, token) }, committedAt: Self.claimCommit)
    }

    /// Issue 35, defect 10: a repeat claim of a purchase the account already holds (a restore on
    /// another device) still decides on the account in a write of its own: before, it answered
    /// `already_claimed` and rewrote the disabled account's profile.json.
    @Test func aRepeatClaimCommitsOnlyBeforeADisable() throws {
        try raceDisable(
            "claimPurchase of a purchase already claimed",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                let token = up.session.refreshToken.value
                try claim(f, token)
                f.nowMs += 60_000  // the restore comes later: a newer transaction, a newer profile
                return (f, up.account.serviceUserID, token)
            },
            action: { f, _, token in try claim(f, token) },
            committedAt: { f, uuid in
                // The listing written again, not disabled: the latest such version.
                f.s3.history[AccountKeys.providers(uuid)]?.filter {
                    let doc = ProvidersDocumentJSON.decode($0.body)
                    return doc?.purchases.contains(Self.purchaseID) == true && doc?.isDisabled == false
                }.map(Self.order).max()
            })
    }

    /// A sign-in that completes a link which stopped after its identity file: the completion is a
    /// link committing, and the refused sign-in leaves no session record either.
    @Test func aSignInCompletesALinkOnlyBeforeADisable() throws {
        try raceDisable(
            "sign-in completing a link",
            setUp: {
                let f = AccountFixture()
                let up = try f.signUp()
                let uuid = up.account.serviceUserID
                try Self.stopLinkAfterItsFile(f, token: up.session.refreshToken.value, uuid: uuid)
                return (f, uuid, "")
            },
            action: { f, uuid, _ in
                let sessions = f.s3.versions(under: AccountKeys.sessionsPrefix(uuid))
                do {
                    _ = try f.service.signIn.signIn(
                        identity: Self.google, intent: .signin, fullName: nil, deadline: .none)
                } catch {
                    #expect(
                        f.s3.versions(under: AccountKeys.sessionsPrefix(uuid)) == sessions,
                        "the refused sign-in left its session record")
                    throw error
                }
            },
            committedAt: { f, uuid in
                f.s3.history[AccountKeys.providers(uuid)]?.first {
                    ProvidersDocumentJSON.decode($0.body)?.index(of: .google, id: Self.google.subject) != nil
                }.map(Self.order)
            })
    }

    /// A link of Google that stopped after writing its identity file (its activation failed).
    static func stopLinkAfterItsFile(_ f: AccountFixture, token: String, uuid: String) throws {
        var providersPuts = 0
        f.backend.intercept = { call, _ in
            guard case .s3Put(let put) = call, put.key == AccountKeys.providers(uuid) else { return .proceed }
            providersPuts += 1
            return providersPuts == 2 ? .fail(DirectBackend.outage) : .proceed
        }
        _ = accountError { _ = try f.service.links.link(token: token, identity: Self.google, deadline: .none) }
        f.backend.intercept = nil
        #expect(f.providers(uuid)?.pending.count == 1 && f.s3.text(Self.googleKey) == uuid)
    }

    /// `authctl check --repair` finds the unfinished link of a disabled account and leaves it:
    /// completing it would commit a link while the account is disabled.
    @Test func checkLeavesTheUnfinishedLinkOfADisabledAccount() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let uuid = up.account.serviceUserID
        try Self.stopLinkAfterItsFile(f, token: up.session.refreshToken.value, uuid: uuid)
        #expect(try f.service.operatorFlow.setDisabled(uuid, Self.disable, deadline: .none))
        f.nowMs += ProvidersDocument.pendingLifetimeMs  // no longer a link under way
        let before = Self.linkage(f, uuid)
        let report = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        let finding = report.findings.first { $0.key == Self.googleKey }
        #expect(finding != nil && finding?.repaired != true, "\(report.findings)")
        #expect(Self.linkage(f, uuid) == before, "the repair linked Google on a disabled account")
        // Enabled again, the next check finishes the link.
        #expect(try f.service.operatorFlow.setDisabled(uuid, nil, deadline: .none))
        _ = f.service.storeCheck.checkStore(repair: true, deadline: .none)
        #expect(f.providers(uuid)?.index(of: .google, id: Self.google.subject) != nil)
    }
}

/// providers.json as stored, decoded without the code under test's error paths.
enum ProvidersDocumentJSON {
    static func decode(_ body: [UInt8]) -> ProvidersDocument? {
        (try? JSONParser.parse(body)).flatMap(ProvidersDocument.init(json:))
    }
}
