import AuthService
import Benchmark
import LambdaRuntime
import LinkFunction
import PlatformSupport
import RefreshFunction
import SignInFunction

/// Whole warm invocations of auth-signin and auth-refresh: everything a warm function does but the
/// Runtime API's hop (the event parsed, the ID token verified, S3 and STS over libcurl with SigV4 on
/// kept-alive loopback connections, the answer and the metrics record written), against the
/// in-process stand-in. `scripts/bench` measures the same operations end to end under the official
/// emulator against moto, beside the Python peer.
func registerFunctionBenchmarks() {
    var configuration = Benchmark.defaultConfiguration
    configuration.maxIterations = 300
    configuration.maxDuration = .seconds(1)

    Benchmark("warm-signin-existing-user", configuration: configuration) {
        (benchmark: Benchmark, function: WarmFunction) in
        let event = function.signInEvent(intent: "signin")
        for _ in benchmark.scaledIterations { blackHole(function.invoke(event)) }
    } setup: {
        prepare {
            let function = try WarmFunction(.signin)
            // The first sign-in creates the account (or finds it, when the refresh benchmark made it).
            _ = function.invoke(function.signInEvent(intent: "auto"))
            return function
        }
    } teardown: {
        QuietStandardError.end()
    }

    Benchmark("warm-refresh", configuration: configuration) { (benchmark: Benchmark, chain: RefreshChain) in
        for _ in benchmark.scaledIterations { chain.refresh() }
    } setup: {
        prepare {
            try RefreshChain()
        }
    } teardown: {
        QuietStandardError.end()
    }
}

/// One function's handler as `Lambda.run` starts it, configured for the stand-in.
final class WarmFunction {
    let handler: any LambdaHandler

    init(_ function: AuthFunction) throws {
        WarmFunction.configureEnvironment()
        QuietStandardError.begin()  // the init line and each invocation's metrics record
        handler = try function.start(InitContext(logger: Logger(minimumLevel: .info), functionName: "\(function)"))
    }

    func signInEvent(intent: String) -> [UInt8] {
        Array(
            #"{"provider":"apple","idToken":"\#(Fixtures.shared.appleToken)","intent":"\#(intent)","nonce":"bench-nonce"}"#
                .utf8)
    }

    /// One invocation, with a fresh context as the runtime loop makes for each.
    func invoke(_ event: [UInt8]) -> [UInt8] {
        let context = LambdaContext(
            requestID: "8f0d4c1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f", deadlineMilliseconds: Clock.nowMilliseconds() + 30_000,
            invokedFunctionARN: "arn:aws:lambda:us-east-1:123456789012:function:bench",
            logger: Logger(minimumLevel: .info))
        guard let answer = try? handler.handle(event, context: context), WarmFunction.succeeded(answer) else {
            fail("an invocation failed")
        }
        return answer
    }

    static func succeeded(_ answer: [UInt8]) -> Bool { answer.starts(with: Array(#"{"success":true"#.utf8)) }

    static let bucket = "signin-identities-bench"

    /// The functions' configuration, pointed at the stand-in (once per process).
    static func configureEnvironment() {
        for (name, value) in [
            ("AWS_REGION", "us-east-1"), ("AWS_ACCESS_KEY_ID", "AKIDSTANDINBENCH"),
            ("AWS_SECRET_ACCESS_KEY", "standin-secret-not-a-credential"), ("AWS_ENDPOINT_URL", StandIn.endpoint),
            ("IDENTITY_BUCKET", bucket), ("USER_ROLE_ARN", "arn:aws:iam::123456789012:role/bench-user"),
            ("APPLE_AUDIENCES", Fixtures.shared.appleAudience), ("APPLE_JWKS_URL", StandIn.appleJWKSURL),
        ] {
            Environment.set(name, value)
        }
    }
}

/// A session refreshed over and over: each refresh presents the token the last one answered.
final class RefreshChain {
    let function: WarmFunction
    private var token: String

    init() throws {
        let signin = try WarmFunction(.signin)
        let answer = signin.invoke(signin.signInEvent(intent: "auto"))
        guard let token = RefreshChain.refreshToken(in: answer) else { fail("the sign-in answered no refresh token") }
        self.token = token
        function = try WarmFunction(.refresh)
    }

    func refresh() {
        let answer = function.invoke(Array(#"{"refreshToken":"\#(token)"}"#.utf8))
        guard let next = RefreshChain.refreshToken(in: answer) else { fail("the refresh answered no token") }
        token = next
    }

    /// The `refreshToken` string of an answer (tokens are base64url: no escapes to undo).
    static func refreshToken(in answer: [UInt8]) -> String? {
        let key = Array(#""refreshToken":""#.utf8)
        guard let start = answer.indices.first(where: { answer[$0...].starts(with: key) }) else { return nil }
        let value = answer[(start + key.count)...]
        guard let end = value.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: value[..<end], as: UTF8.self)
    }
}
