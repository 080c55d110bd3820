import Foundation
import Testing

@testable import SignInClient

@Suite struct SignInErrorTests {
    @Test(arguments: [
        ("INVALID_REQUEST", UIRecommendation.fixTheCall), ("UNSUPPORTED_PROVIDER", .fixTheCall),
        ("INVALID_TOKEN", .signInAgain), ("TOKEN_EXPIRED", .signInAgain), ("SESSION_INVALID", .signInAgain),
        ("REAUTHENTICATION_REQUIRED", .reauthenticateThenRetry), ("CONFLICT", .retryLater),
        ("UPSTREAM_UNAVAILABLE", .retryLater), ("ACCOUNT_DISABLED", .tellUser(.accountDisabled)),
        ("PURCHASE_BELONGS_TO_OTHER_ACCOUNT", .tellUser(.purchaseBelongsToOtherAccount)),
        ("LAST_PROVIDER", .tellUser(.lastProvider)), ("IDENTITY_SUSPENDED", .tellUser(.identitySuspended)),
        ("SOME_FUTURE_CODE", .retryLater),
    ])
    func everyCodeTellsTheUIWhatToDo(code: String, expected: UIRecommendation) {
        #expect(SignInError.server(ErrorCode(rawValue: code), message: "", status: nil).recommendation == expected)
    }

    @Test func noAnswerIsRetryLater() {
        #expect(SignInError.offline(detail: "x").recommendation == .retryLater)
        #expect(SignInError.timedOut.recommendation == .retryLater)
        #expect(SignInError.unavailable(status: 502).recommendation == .retryLater)
        #expect(SignInError.notSignedIn.recommendation == .signInAgain)
    }

    @Test func theListHoldsEveryContractCodeOnce() {
        #expect(ErrorCode.all.count == 17)
        #expect(Set(ErrorCode.all).count == 17)
    }

    @Test func aSuspendedIdentityKeepsTheSession() async throws {
        let store = InMemorySessionStore()
        let transport = ScriptedTransport { function, _ in
            function == .signin
                ? Answers.failure("IDENTITY_SUSPENDED", status: 403)
                : Answers.ok(Answers.envelope(["status": "linked", "user": Answers.user()]))
        }
        let session = try await signedInSession(backend(), store: store)
        let linker = SignInSession(configuration: SignInConfiguration(transport: transport, store: store))
        await #expect(throws: SignInError.server(.identitySuspended, message: "m", status: 403)) {
            _ = try await linker.signIn(with: .google, idToken: "id")
        }
        #expect(try store.load() != nil)
        #expect(await session.currentUser != nil)
    }

    @Test func anEnvelopeWithoutAnEnvelopeOnA5xxIsUnavailableNotMalformed() throws {
        let answer = TransportAnswer(statusCode: 503, body: Data("Service Unavailable".utf8))
        #expect(throws: SignInError.unavailable(status: 503)) {
            _ = try WireCoding.payload(SignedOut.self, from: answer, action: "signout")
        }
    }

    @Test func datesWithAndWithoutFractionalSecondsDecode() {
        #expect(WireCoding.parseDate("2026-11-25T01:02:03Z") != nil)
        #expect(WireCoding.parseDate("2026-11-25T01:02:03.456Z") != nil)
        #expect(WireCoding.parseDate("yesterday") == nil)
    }
}
