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
            signIn: Self.url, refresh: Self.url, link: Self.url, functionTimeout: functionTimeout)
        let configuration = transport.session.configuration
        #expect(transport.attemptTimeout > functionTimeout)  // the task deadline is a second later still
        #expect(configuration.timeoutIntervalForRequest >= transport.attemptTimeout)  // idle, per byte on Darwin
        #expect(configuration.timeoutIntervalForResource >= transport.attemptTimeout)  // the whole exchange
    }

    @Test func theDefaultsMatchTheTemplatesTimeout() {
        let transport = FunctionURLTransport(signIn: Self.url, refresh: Self.url, link: Self.url)
        #expect(transport.functionTimeout == 10)  // template.yaml, Globals.Function.Timeout
        #expect(transport.attemptTimeout == 15)
    }

    @Test func onlyFailuresBeforeTheRequestLeftAreOffline() {
        #expect(URLError(.cannotConnectToHost).signInError == .offline(detail: "URLError -1004"))
        #expect(URLError(.notConnectedToInternet).signInError == .offline(detail: "URLError -1009"))
        #expect(URLError(.timedOut).signInError == .timedOut)
        #expect(URLError(.networkConnectionLost).signInError == .answerLost(detail: "URLError -1005"))
        #expect(URLError(.networkConnectionLost).signInError.mayHaveRotated)
        #expect(!URLError(.cannotConnectToHost).signInError.mayHaveRotated)
    }
}
