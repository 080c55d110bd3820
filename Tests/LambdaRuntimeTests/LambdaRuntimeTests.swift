import Testing
import StrictJSON
@testable import LambdaRuntime

private let t0: Int64 = 1_795_347_304_937 // 2026-11-22T11:35:04.937Z

private func object(_ line: [UInt8]) throws -> JSONObject {
    #expect(line.last == 0x0a)
    #expect(line.dropLast().firstIndex(of: 0x0a) == nil)
    return try #require(try JSONParser.parse(Array(line.dropLast())).objectValue)
}

@Suite struct LoggerTests {
    @Test func jsonShape() throws {
        let logger = Logger(minimumLevel: .info, json: true).with(requestID: "req-1")
        let obj = try object(logger.render(.info, "invocation", [("outcome", "ok"), ("durationMs", .number("1.25"))], nowMilliseconds: t0))
        #expect(obj.keys == ["timestamp", "level", "message", "requestId", "outcome", "durationMs"])
        #expect(obj["timestamp"] == "2026-11-22T11:35:04.937Z")
        #expect(obj["level"] == "INFO" && obj["message"] == "invocation" && obj["requestId"] == "req-1")
        #expect(obj["durationMs"] == .number("1.25"))
    }

    @Test func jsonWithoutRequestIDAndHostileText() throws {
        let logger = Logger(json: true)
        let obj = try object(logger.render(.fatal, "line\none \"quoted\" \u{1}", [("message", "spoof"), ("level", "DEBUG"), ("requestId", "x")], nowMilliseconds: t0))
        #expect(obj["requestId"] == nil)
        #expect(obj["message"] == "line\none \"quoted\" \u{1}") // fields never replace the core keys
        #expect(obj["level"] == "FATAL")
        #expect(obj.count == 3)
    }

    @Test func textShape() {
        let logger = Logger(minimumLevel: .debug).with(requestID: "req-2")
        let line = logger.render(.warn, "slow", [("what", "s3 get"), ("ms", .int(12)), ("ok", false)], nowMilliseconds: t0)
        #expect(String(decoding: line, as: UTF8.self) == "2026-11-22T11:35:04.937Z WARN req-2 slow what=s3 get ms=12 ok=false\n")
        let multi = Logger().render(.error, "a\nb", [("k", "c\r\nd")], nowMilliseconds: t0)
        #expect(String(decoding: multi, as: UTF8.self) == "2026-11-22T11:35:04.937Z ERROR a b k=c  d\n")
    }

    @Test func levels() {
        #expect(Logger.Level(name: "warning") == .warn && Logger.Level(name: "Debug") == .debug)
        #expect(Logger.Level(name: "verbose") == nil)
        #expect([Logger.Level.trace, .debug, .info, .warn, .error, .fatal].map(\.name) == ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"])
        let warn = Logger(minimumLevel: .warn)
        #expect(!warn.isEnabled(.info) && warn.isEnabled(.warn) && warn.isEnabled(.fatal))
        #expect(Logger().minimumLevel == .info && !Logger().json)
    }
}

private struct Typed: LambdaFunctionError {
    var errorType: String { "Auth.Broken" }
    var errorMessage: String { "named failure" }
}

private struct Untyped: Error { let secret = "token-abc" }

@Suite struct ErrorReporting {
    @Test func errorDocumentShape() throws {
        let doc = try JSONParser.parse(Diagnostic(errorType: "Function.X", errorMessage: "it \"broke\"\n").document)
        #expect(doc.objectValue?.keys == ["errorType", "errorMessage", "stackTrace"])
        #expect(doc["errorType"] == "Function.X" && doc["errorMessage"] == "it \"broke\"\n")
        #expect(doc["stackTrace"] == .array([]))
    }

    @Test func describeUsesTheTypedErrorOrOnlyTheTypeName() {
        let typed = Diagnostic(Typed(), fallbackType: "Function.UnhandledError")
        #expect(typed == Diagnostic(errorType: "Auth.Broken", errorMessage: "named failure"))
        let untyped = Diagnostic(Untyped(), fallbackType: "Function.UnhandledError")
        #expect(untyped.errorType == "Function.UnhandledError")
        #expect(untyped.errorMessage == "Untyped" && !untyped.errorMessage.contains("token")) // never the description
    }

    @Test func durationText() {
        #expect(Lambda.milliseconds(micros: 0) == "0.00")
        #expect(Lambda.milliseconds(micros: 1_250) == "1.25")
        #expect(Lambda.milliseconds(micros: 1_009) == "1.00")
        #expect(Lambda.milliseconds(micros: 123_456_789) == "123456.78")
    }

    @Test func remainingTime() {
        let ctx = LambdaContext(requestID: "r", deadlineMilliseconds: Clock_now() + 3_000, invokedFunctionARN: "arn", logger: Logger())
        #expect(ctx.remainingMilliseconds > 1_000 && ctx.remainingMilliseconds <= 3_000)
        #expect(ctx.traceID == nil && ctx.clientContext == nil && ctx.cognitoIdentity == nil)
    }
}

#if canImport(Glibc)
import Glibc
#endif
private func Clock_now() -> Int64 { Int64(time(nil)) * 1000 }

@Suite struct HeaderNames {
    @Test func caseInsensitiveMatching() {
        #expect(Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-Id", "lambda-runtime-trace-id"))
        #expect(Invocation.equalsIgnoringCase("LAMBDA-RUNTIME-TRACE-ID", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-Id2", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda-Runtime-Trace-I", "lambda-runtime-trace-id"))
        #expect(!Invocation.equalsIgnoringCase("Lambda_Runtime-Trace-Id", "lambda-runtime-trace-id"))
        #expect(Invocation.hasPrefixIgnoringCase("Lambda-Runtime-X", "lambda-runtime-"))
        #expect(!Invocation.hasPrefixIgnoringCase("Lambda-Runtim", "lambda-runtime-"))
        #expect(!Invocation.hasPrefixIgnoringCase("Lámbda-Runtime-X", "lambda-runtime-"))
    }
}
