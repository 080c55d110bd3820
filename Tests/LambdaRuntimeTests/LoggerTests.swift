import StrictJSON
import Testing

@testable import LambdaRuntime

private let t0: Int64 = 1_795_347_304_937  // 2026-11-22T11:35:04.937Z

private func object(_ line: [UInt8]) throws -> JSONObject {
    #expect(line.last == 0x0a)
    #expect(line.dropLast().firstIndex(of: 0x0a) == nil)
    return try #require(try JSONParser.parse(Array(line.dropLast())).objectValue)
}

@Suite struct LoggerTests {
    @Test func jsonShape() throws {
        let logger = Logger(minimumLevel: .info, json: true).with(requestID: "req-1")
        let obj = try object(
            logger.render(
                .info, "invocation", [("outcome", "ok"), ("durationMs", .number("1.25"))], nowMilliseconds: t0))
        #expect(obj.keys == ["timestamp", "level", "message", "requestId", "outcome", "durationMs"])
        #expect(obj["timestamp"] == "2026-11-22T11:35:04.937Z")
        #expect(obj["level"] == "INFO" && obj["message"] == "invocation" && obj["requestId"] == "req-1")
        #expect(obj["durationMs"] == .number("1.25"))
    }

    @Test func jsonWithoutRequestIDAndHostileText() throws {
        let logger = Logger(json: true)
        let obj = try object(
            logger.render(
                .fatal, "line\none \"quoted\" \u{1}", [("message", "spoof"), ("level", "DEBUG"), ("requestId", "x")],
                nowMilliseconds: t0))
        #expect(obj["requestId"] == nil)
        #expect(obj["message"] == "line\none \"quoted\" \u{1}")  // fields never replace the core keys
        #expect(obj["level"] == "FATAL")
        #expect(obj.count == 3)
    }

    @Test func textShape() {
        let logger = Logger(minimumLevel: .debug).with(requestID: "req-2")
        let line = logger.render(
            .warn, "slow", [("what", "s3 get"), ("ms", .int(12)), ("ok", false)], nowMilliseconds: t0)
        #expect(
            String(decoding: line, as: UTF8.self)
                == "2026-11-22T11:35:04.937Z WARN req-2 slow what=s3 get ms=12 ok=false\n")
        let multi = Logger().render(.error, "a\nb", [("k", "c\r\nd")], nowMilliseconds: t0)
        #expect(String(decoding: multi, as: UTF8.self) == "2026-11-22T11:35:04.937Z ERROR a b k=c  d\n")
    }

    @Test func levels() {
        #expect(Logger.Level(name: "warning") == .warn && Logger.Level(name: "Debug") == .debug)
        #expect(Logger.Level(name: "verbose") == nil)
        #expect(
            [Logger.Level.trace, .debug, .info, .warn, .error, .fatal].map(\.name) == [
                "TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL",
            ])
        let warn = Logger(minimumLevel: .warn)
        #expect(!warn.isEnabled(.info) && warn.isEnabled(.warn) && warn.isEnabled(.fatal))
        #expect(Logger().minimumLevel == .info && !Logger().json)
    }

    @Test func eachEnabledLineGoesToTheSinkWhole() {
        let log = LogLines()
        let logger = log.logger(.warn).with(requestID: "req-3")
        logger.info("dropped")
        logger.debug("dropped")
        logger.warn("kept", [("n", .int(1))])
        logger.error("two\nlines")
        #expect(log.lines.count == 2)
        #expect(log.lines[0].hasSuffix(" WARN req-3 kept n=1\n"))
        #expect(log.lines[1].hasSuffix(" ERROR req-3 two lines\n"))
    }
}
