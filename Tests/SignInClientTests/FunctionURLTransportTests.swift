import Foundation
import Testing

@testable import SignInClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Defect 3 of issue 24: no attempt is abandoned before the function's own timeout has passed (one
/// given up sooner could reach the function after its retry and supersede the token the app kept).
/// The end-to-end proof, with a proxy delaying an attempt, is Tests/integration/test_client_rules.py.
@Suite struct FunctionURLTransportTests {
    static let url = URL(string: "http://127.0.0.1:9/")!

    @Test(arguments: [10.0, 3, 30]) func everyBoundOnAnAttemptOutlastsTheFunctionsTimeout(functionTimeout: Double) {
        let transport = FunctionURLTransport(
            signIn: Self.url, refresh: Self.url, link: Self.url,
            functionTimeouts: [.signin: functionTimeout, .refresh: functionTimeout, .link: functionTimeout])
        let configuration = transport.session.configuration
        for function in SignInFunction.allCases {
            let attempt = transport.attemptTimeout(for: function)
            #expect(attempt > functionTimeout)  // the task deadline is a second later still
            #expect(configuration.timeoutIntervalForRequest >= attempt)  // idle, per byte on Darwin
            #expect(configuration.timeoutIntervalForResource >= attempt)  // the whole exchange
        }
    }

    /// auth-link's `Timeout` is 30 s (a deletion purges within its invocation): an attempt at it
    /// waits 35 s, not the 15 s of the others (the client used to give every function 10 + 5 s).
    @Test func theDefaultsAreEachFunctionsTimeoutInTheTemplate() throws {
        let template = try String(contentsOf: Self.repository.appendingPathComponent("template.yaml"), encoding: .utf8)
        let timeouts = template.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("Timeout:")
        }
        .map { Double($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        #expect(timeouts == [10, 30])  // Globals.Function.Timeout, then AuthLinkFunction's own
        #expect(SignInFunction.signin.templateTimeout == 10 && SignInFunction.refresh.templateTimeout == 10)
        #expect(SignInFunction.link.templateTimeout == 30)
        let transport = FunctionURLTransport(signIn: Self.url, refresh: Self.url, link: Self.url)
        #expect(transport.attemptTimeout(for: .signin) == 15 && transport.attemptTimeout(for: .refresh) == 15)
        #expect(transport.attemptTimeout(for: .link) == 35)
        #expect(transport.session.configuration.timeoutIntervalForResource == 35)
        let changed = FunctionURLTransport(
            signIn: Self.url, refresh: Self.url, link: Self.url, functionTimeouts: [.refresh: 20])
        #expect(changed.attemptTimeout(for: .refresh) == 25 && changed.attemptTimeout(for: .link) == 35)
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func onlyFailuresBeforeTheRequestLeftAreOffline() {
        #expect(URLError(.cannotConnectToHost).signInError == .offline(detail: "URLError -1004"))
        #expect(URLError(.notConnectedToInternet).signInError == .offline(detail: "URLError -1009"))
        #expect(URLError(.timedOut).signInError == .timedOut)
        #expect(URLError(.networkConnectionLost).signInError == .answerLost(detail: "URLError -1005"))
        #expect(URLError(.networkConnectionLost).signInError.mayHaveRotated)
        #expect(!URLError(.cannotConnectToHost).signInError.mayHaveRotated)
    }
}
