import AWSClients
import AccountTestSupport
import Testing

@Suite struct LinkTests {
    let g1 = AccountFixture.google("111"), g2 = AccountFixture.google("222")

    @Test func linkClaimsThenWritesTheFileThenActivates() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        var writes: [String] = []
        f.backend.intercept = { call, _ in
            if call.isWrite, let key = call.key {
                writes.append(key.hasPrefix("identities/") ? "identity" : String(key.split(separator: "/").last!))
            }
            return .proceed
        }
        let out = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        #expect(out.status == .linked && writes == ["providers.json", "identity", "providers.json"])
        let doc = try #require(f.providers(up.account.serviceUserID))
        #expect(doc.pending.isEmpty && doc.providers.map(\.type) == [.apple, .google])
        #expect(doc.providers[1].linkID == f.linkID(of: g1))
        #expect(
            try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none).status
                == .alreadyLinked)
    }

    /// Defect 3: two links of two Google identities into one account; the second one's claim
    /// lands between the first one's read and write.
    @Test func concurrentLinksOfOneProviderLeaveOneLinkAndNoStrayFile() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Put(let p) = call, p.key.hasSuffix("providers.json") {
                raced = true
                #expect(
                    (try? f.service.links.link(token: up.session.refreshToken.value, identity: g2, deadline: .none))?
                        .status
                        == .linked)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
            }
                == "providerAlreadyLinked")
        #expect(f.providers(up.account.serviceUserID)?.providers.map(\.id) == [AccountFixture.apple.subject, "222"])
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    /// Defect 3, second form: a link fails after its identity write, then another Google identity
    /// is linked. The first link holds the slot; a sign-in with it completes it.
    @Test func aLinkThatFailedAfterItsFileHoldsTheSlotUntilCompleted() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        var writes = 0
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.hasSuffix("providers.json") {
                writes += 1
                if writes == 2 { return .fail(DirectBackend.outage) }  // the activation
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
            }
                == "upstream")
        f.backend.intercept = nil
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g2, deadline: .none)
            }
                == "providerAlreadyLinked")
        #expect(f.s3.current(AccountKeys.identity(.google, "222")) == nil)
        let viaG1 = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
        #expect(viaG1.account.serviceUserID == up.account.serviceUserID && viaG1.account.providers.providers.count == 2)
    }

    @Test func linkNeedsARecentSignInAndTheCurrentToken() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        let rotated = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
            }
                == "sessionInvalid")
        f.nowMs += 601_000
        #expect(
            accountError {
                _ = try f.service.links.link(token: rotated.session.refreshToken.value, identity: g1, deadline: .none)
            } == "reauthenticationRequired")
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    @Test func anIdentityOfAnotherAccountIsRefused() throws {
        let f = AccountFixture()
        let up = try f.signUp()
        _ = try f.signUp(g1)
        let before = f.backend.fingerprint
        #expect(
            accountError {
                _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
            }
                == "providerAlreadyLinked")
        #expect(f.backend.fingerprint == before)
    }
}

@Suite struct UnlinkTests {
    let g1 = AccountFixture.google("111")

    func linked(_ f: AccountFixture) throws -> SignInOutcome {
        let up = try f.signUp()
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        return up
    }

    @Test func unlinkRetiresTheLinkThenDeletesThatVersionOfTheFile() throws {
        let f = AccountFixture()
        let up = try linked(f)
        let out = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
        #expect(out.status == .unlinked && out.account.providers.providers.map(\.type) == [.apple])
        #expect(f.s3.history[AccountKeys.identity(.google, "111")] == nil, "no old version keeps the UUID")
        #expect(f.providers(up.account.serviceUserID)?.retired.map(\.id) == ["111"])
        #expect(
            accountError {
                _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
            } == "providerNotLinked")
        #expect(
            accountError {
                _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .apple, deadline: .none)
            } == "lastProvider")
    }

    /// Defect 2: the providers write lands, its answer is lost and the transport's retry meets 412.
    @Test func aLostAnswerToTheCommitStillFinishesTheUnlink() throws {
        let f = AccountFixture()
        let up = try linked(f)
        f.backend.intercept = { call, _ in
            if case .s3Put(let p) = call, p.key.hasSuffix("providers.json") { return .appliedThenRetried }
            return .proceed
        }
        #expect(
            try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none).status
                == .unlinked)
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    /// Defect 2: the commit lands but the file's delete fails. G1 does not sign in; a retry finishes.
    @Test func anUnlinkWhoseDeleteFailedIsFinishedByItsRetryOrASignIn() throws {
        let f = AccountFixture()
        let up = try linked(f)
        f.backend.intercept = { call, _ in
            if case .s3Delete(let key, _) = call, key.hasPrefix("identities/") { return .fail(DirectBackend.outage) }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
            } == "upstream")
        f.backend.intercept = nil
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) != nil)
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
            }
                == "accountNotFound")
        #expect(f.providers(up.account.serviceUserID)?.providers.map(\.type) == [.apple], "not listed again")
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil, "the sign-in removed the leftover")
    }

    @Test func aRetryAfterAFailedDeleteAnswersUnlinked() throws {
        let f = AccountFixture()
        let up = try linked(f)
        f.backend.intercept = { call, _ in
            if case .s3Delete(let key, _) = call, key.hasPrefix("identities/") { return .fail(DirectBackend.outage) }
            return .proceed
        }
        _ = accountError {
            _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
        }
        f.backend.intercept = nil
        #expect(
            try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none).status
                == .unlinked)
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    /// Defect 2, racing a sign-in: the sign-in read G1's file, then the unlink committed and
    /// deleted it; the sign-in must not list G1 again.
    @Test func aSignInRacingTheUnlinkDoesNotListTheIdentityAgain() throws {
        let f = AccountFixture()
        let up = try linked(f)
        var raced = false
        f.backend.intercept = { call, _ in
            if !raced, case .s3Get(let key) = call, key.hasSuffix("providers.json") {
                raced = true
                _ = try? f.service.links.unlink(
                    token: up.session.refreshToken.value, provider: .google, deadline: .none)
            }
            return .proceed
        }
        #expect(
            accountError {
                _ = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
            }
                == "accountNotFound")
        #expect(raced && f.providers(up.account.serviceUserID)?.providers.map(\.type) == [.apple])
        #expect(f.s3.current(AccountKeys.identity(.google, "111")) == nil)
    }

    /// Defect 4: the sessions of an unlinked identity end, and stay ended if it is linked again.
    @Test func unlinkingEndsTheSessionsOfThatIdentity() throws {
        let f = AccountFixture()
        let up = try linked(f)
        let intruder = try f.service.signIn.signIn(identity: g1, intent: .signin, fullName: nil, deadline: .none)
        _ = try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none)
        #expect(
            accountError {
                _ = try f.service.sessions.refresh(token: intruder.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
        _ = try f.service.links.link(token: up.session.refreshToken.value, identity: g1, deadline: .none)
        #expect(
            accountError {
                _ = try f.service.sessions.refresh(token: intruder.session.refreshToken.value, deadline: .none)
            }
                == "sessionInvalid")
        _ = try f.service.sessions.refresh(token: up.session.refreshToken.value, deadline: .none)
    }

    @Test func anIdentityFileOfAnotherAccountIsLeftAlone() throws {
        let f = AccountFixture(versioned: false)
        let up = try linked(f)
        let other = "0a0b0c0d-0e0f-4000-8000-000000000003"
        f.s3.store(AccountKeys.identity(.google, "111"), Array(other.utf8), contentType: "text/plain")
        #expect(
            try f.service.links.unlink(token: up.session.refreshToken.value, provider: .google, deadline: .none).status
                == .unlinked)
        #expect(f.s3.text(AccountKeys.identity(.google, "111")) == other)
    }
}
