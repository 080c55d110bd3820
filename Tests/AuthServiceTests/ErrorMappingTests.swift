import AWSClients
import AccountModel
import AccountStore
import Testing
import TokenVerification

@testable import AuthService

@Suite struct ErrorMappingTests {
    func code(_ error: any Error, provider: IdentityProvider? = .google) -> ErrorCode? {
        (try? ErrorMapping.serviceError(for: error, provider: provider))?.code
    }

    @Test func everyAccountOutcomeHasItsContractCode() {
        let expected: [(AccountError, ErrorCode)] = [
            (.accountNotFound, .accountNotFound), (.accountAlreadyExists, .accountAlreadyExists),
            (.providerAlreadyLinked, .providerAlreadyLinked),
            (.providerNotLinked, .providerNotLinked), (.lastProvider, .lastProvider),
            (.sessionInvalid(reason: "reuse"), .sessionInvalid),
            (.reauthenticationRequired, .reauthenticationRequired), (.conflict("x"), .conflict),
            (.upstream(AWSError(kind: .unavailable, message: "down")), .upstreamUnavailable),
            (.upstream(AWSError(kind: .throttled, code: "SlowDown", message: "slow")), .upstreamUnavailable),
            (.upstream(AWSError(kind: .conflict, code: "ConditionalRequestConflict", message: "409")), .conflict),
        ]
        for (error, want) in expected { #expect(code(error) == want, "\(error)") }
    }

    @Test func tokenFailuresMapByKind() {
        #expect(code(TokenError(kind: .invalid, message: "bad signature")) == .invalidToken)
        #expect(code(TokenError(kind: .expired, message: "exp")) == .tokenExpired)
        #expect(code(TokenError(kind: .unsupportedProvider, message: "off")) == .unsupportedProvider)
        #expect(code(TokenError(kind: .keysUnavailable, message: "jwks down")) == .upstreamUnavailable)
    }

    @Test func messagesNameTheProviderAndNeverTheReason() throws {
        let m = try ErrorMapping.serviceError(for: AccountError.accountNotFound, provider: .google)
        #expect(m.message == "No account is linked to this Google sign-in.")
        let s = try ErrorMapping.serviceError(
            for: AccountError.sessionInvalid(reason: "reuse of token rt1_secret"), provider: nil)
        #expect(!s.message.contains("rt1_") && !s.message.contains("reuse"))
    }

    @Test func bugsAndBrokenDeploymentsAreRethrownUnclassified() {
        let corrupt = AccountError.corruptDocument(key: "identities/apple/001234.secret.0001", reason: "not JSON")
        #expect(throws: UnclassifiedFailure.self) { _ = try ErrorMapping.serviceError(for: corrupt, provider: .apple) }
        do { _ = try ErrorMapping.serviceError(for: corrupt, provider: .apple) } catch let f as UnclassifiedFailure {
            #expect(
                f.errorType == "Account.CorruptDocument" && !f.errorMessage.contains("001234.secret"),
                "keys are redacted")
        } catch { Issue.record("\(error)") }
        #expect(throws: UnclassifiedFailure.self) {
            _ = try ErrorMapping.serviceError(for: AccountError.internalError("x"), provider: nil)
        }
        #expect(throws: UnclassifiedFailure.self) {
            _ = try ErrorMapping.serviceError(
                for: AccountError.upstream(AWSError(kind: .accessDenied, code: "AccessDenied", message: "no")),
                provider: nil)
        }
        struct Foreign: Error {}
        #expect(throws: Foreign.self) { _ = try ErrorMapping.serviceError(for: Foreign(), provider: nil) }
    }

    @Test func redactedKeysKeepOnlyTheirShape() {
        #expect(ErrorMapping.redactedKey("identities/apple/001234.abc.0001") == "identities/…")
        #expect(
            ErrorMapping.redactedKey("users/6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b/account/profile.json")
                == "users/…/profile.json")
        #expect(
            ErrorMapping.redactedKey(
                "users/6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b/account/sessions/0123456789abcdef0123456789abcdef.json")
                == "users/…")
    }
}
