import CryptoPrimitives
import CurlHTTP
import PlatformSupport
import StrictJSON
import Testing

@testable import SignInWithApple

/// The app-transfer client's loop (contract v4: "within Apple's rate limits", with backoff) against
/// the loopback Apple, which checks every client secret, token and parameter as Apple does
/// (signin_tools/standins/apple_migration.py). The client's clock and sleep are the test's: every
/// wait it decides is recorded, none is slept, so the figures are exact and the test is fast.
@Suite(.serialized) struct AppleMigrationClientTests {
    static let target = "TEAMB67890"

    /// Milliseconds that move only when the client sleeps; each sleep recorded.
    final class Waits {
        let startMs = Clock.nowMilliseconds()
        var sleptMs = 0
        var sleeps: [Int] = []
        var nowMs: Int64 { startMs + Int64(sleptMs) }
        func sleep(_ ms: Int) {
            sleeps.append(ms)
            sleptMs += ms
        }
    }

    typealias Fixture = (apple: AppleAuthStandIn, client: AppleMigrationClient, waits: Waits, subs: [String])

    static func setUp(rate: Double = 100, people: [String] = ["ada", "bob", "cyd"]) throws -> Fixture {
        let apple = try AppleAuthStandIn()
        try apple.command(["apple_add_team": .string(target), "key_id": "KEYB000001"])
        let subs = try #require(
            try apple.command(["apple_users": .array(people.map { .string($0) })])["subs"]?.arrayValue
        )
        .compactMap(\.stringValue)
        let env = apple.environment
        let settings = try #require(try AppleRevocationSettings.from(environment: { env[$0] }))
        let key = try P256PrivateKey(pem: try #require(env["APPLE_PRIVATE_KEY"]))
        let waits = Waits()
        let client = AppleMigrationClient(
            settings: settings, key: key, http: try HTTPClient(), requestsPerSecond: rate, now: { waits.nowMs },
            sleep: { waits.sleep($0) })
        return (apple, client, waits, subs)
    }

    static func counts(_ apple: AppleAuthStandIn) throws -> (tokens: Int, asked: Int, answered: Int) {
        let c = try apple.command(["apple_migration_counts": true])
        return (
            Int(c["client_credentials"]?.int64Value ?? -1), Int(c["usermigrationinfo"]?.int64Value ?? -1),
            Int(c["transfer_sub"]?.int64Value ?? -1)
        )
    }

    static func values(_ answers: [AppleMigrationAnswer<String>]) -> [String] {
        answers.map { answer in
            switch answer {
            case .value(let v): return v
            case .refused(let why): return "refused \(why)"
            case .unavailable(let why): return "unavailable \(why)"
            }
        }
    }

    func expected(_ apple: AppleAuthStandIn, _ people: [String]) throws -> [String] {
        try people.map { person in
            try #require(
                try apple.command(["apple_transfer_sub": .string(person), "target": .string(Self.target)])[
                    "transfer_sub"]?.stringValue)
        }
    }

    @Test func batchesGoOutPacedWithOneTokenForTheRunAndARefusedUserIsNamed() throws {
        let (apple, client, waits, subs) = try Self.setUp(rate: 4)
        defer { apple.stop() }
        let first = client.transferSubs(subs, target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(Self.values(first) == (try expected(apple, ["ada", "bob", "cyd"])))
        let second = client.transferSubs(
            [subs[0], "000000.unknown.0000"], target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(Self.values(second) == [try expected(apple, ["ada"])[0], "refused invalid_request"])
        #expect(try Self.counts(apple).tokens == 1, "the hour's token is reused")
        #expect(client.requests == 1 + 5 && client.throttled == 0)
        #expect(waits.sleeps == [0, 750], "3 requests at 4/s take 750 ms before the next batch")
    }

    @Test func fiveHundredsAreRetriedWithABackoffThatGrows() throws {
        let (apple, client, waits, subs) = try Self.setUp()
        defer { apple.stop() }
        _ = client.transferSubs([subs[0]], target: Self.target, deadline: .after(milliseconds: 60_000))  // the token
        waits.sleeps = []
        try apple.failNext(2, status: 503)
        let answers = client.transferSubs([subs[1]], target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(Self.values(answers) == (try expected(apple, ["bob"])))
        // Pacing waits (10 ms a request at 100/s) and the two backoffs: full jitter under 500, then 1,000 ms.
        let backoffs = waits.sleeps.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        #expect(backoffs.count == 2 && backoffs[0] <= 500 && backoffs[1] <= 1_000, "\(waits.sleeps)")
        #expect(client.pacer.rate == 100, "a 5xx is not a reason to slow down")
    }

    @Test func a429IsWaitedOutForItsRetryAfterAndHalvesThePace() throws {
        let (apple, client, waits, subs) = try Self.setUp(rate: 10)
        defer { apple.stop() }
        try apple.command(["apple_throttle_next": 1, "retry_after": 3])
        let answers = client.transferSubs(
            Array(subs.prefix(2)), target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(Self.values(answers) == (try expected(apple, ["ada", "bob"])))
        let asked = try Self.counts(apple).asked
        #expect(client.throttled == 1 && asked == 3, "one of the two asked again")
        #expect(waits.sleeps.contains { $0 >= 2_800 }, "Retry-After: 3 waited out: \(waits.sleeps)")
        #expect(client.pacer.rate == 5.5, "halved to 5, then a tenth back after the clean retry")
    }

    @Test func anAppleThatKeepsFailingIsUnavailableAfterTheAttemptsAndNothingIsAskedAgain() throws {
        let (apple, client, _, subs) = try Self.setUp()
        defer { apple.stop() }
        _ = client.transferSubs([subs[0]], target: Self.target, deadline: .after(milliseconds: 60_000))
        client.maxAttempts = 3
        try apple.setDown(true)
        let answers = client.transferSubs(
            Array(subs[1...]), target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(
            Self.values(answers)
                == Array(repeating: "unavailable Apple kept answering 429 or 5xx (3 attempts)", count: 2))
        try apple.setDown(false)
        #expect(try Self.counts(apple).answered == 1)
    }

    @Test func anAccessTokenAppleEndedIsRenewedOnceAndTheUserAskedAgain() throws {
        let (apple, client, _, subs) = try Self.setUp()
        defer { apple.stop() }
        _ = client.transferSubs([subs[0]], target: Self.target, deadline: .after(milliseconds: 60_000))
        try apple.command(["apple_expire_tokens_at": 2])  // the next request finds the hour over
        let answers = client.transferSubs([subs[1]], target: Self.target, deadline: .after(milliseconds: 60_000))
        #expect(Self.values(answers) == (try expected(apple, ["bob"])))
        #expect(try Self.counts(apple).tokens == 2)
    }

    @Test func theRecipientExchangesATransferSubForTheNewSubOnlyAfterTheTransfer() throws {
        let (apple, sending, _, subs) = try Self.setUp()
        defer { apple.stop() }
        let transferSub = Self.values(
            sending.transferSubs([subs[0]], target: Self.target, deadline: .after(milliseconds: 60_000)))[0]
        // Team B's client: its own key, which the stand-in made when the team was added.
        guard case .object(let o) = try apple.command(["apple_team_env": .string(Self.target)]) else {
            Issue.record("no settings for team B")
            return
        }
        let env = o.reduce(into: [String: String]()) { $0[$1.key] = $1.value.stringValue }
        let settings = try #require(try AppleRevocationSettings.from(environment: { env[$0] }))
        let recipient = AppleMigrationClient(
            settings: settings, key: try P256PrivateKey(pem: try #require(env["APPLE_PRIVATE_KEY"])),
            http: try HTTPClient(), requestsPerSecond: 100)
        func exchanged() -> String {
            switch recipient.exchange([transferSub], deadline: .after(milliseconds: 60_000))[0] {
            case .value(let user):
                return "\(user.sub) \(user.email ?? "-") \(user.isPrivateEmail.map(String.init) ?? "-")"
            case .refused(let why): return "refused \(why)"
            case .unavailable(let why): return "unavailable \(why)"
            }
        }
        #expect(exchanged() == "refused invalid_request", "not before the app moved to team B")
        try apple.command(["apple_transfer": .string(Self.target)])
        let newSub = try #require(try apple.command(["apple_users": ["ada"]])["subs"]?.arrayValue?.first?.stringValue)
        let answer = exchanged()
        #expect(answer.hasPrefix(newSub + " ") && answer.hasSuffix("@privaterelay.appleid.com true"), "\(answer)")
        #expect(newSub != subs[0])
    }
}
