import PlatformSupport
import StrictJSON

/// Lambda-style logging to stderr: plain text, or Lambda's JSON shape when
/// `AWS_LAMBDA_LOG_FORMAT=JSON` (`timestamp` RFC 3339, `level`, `message`, `requestId`), filtered
/// by `AWS_LAMBDA_LOG_LEVEL`.
///
/// Nothing here filters secrets: the callers keep them out. Messages and fields name things and
/// never quote tokens, keys or credentials; a handler error that is not a `LambdaFunctionError`
/// is logged and posted by its type name only (`Diagnostic`), since its description could carry
/// input; the credential types print their key id only, and `AWSError` carries no headers
/// (docs/decisions/aws.md, "Secrets stay out of text").
package struct Logger: Sendable {
    let minimumLevel: Level
    let json: Bool
    var requestID: String?
    let sink: LogSink

    init(minimumLevel: Level = .info, json: Bool = false, requestID: String? = nil, sink: LogSink = .standardError) {
        self.minimumLevel = minimumLevel
        self.json = json
        self.requestID = requestID
        self.sink = sink
    }

    /// A logger writing to stderr at `minimumLevel`: for other modules' tests, which build
    /// contexts of their own.
    package init(minimumLevel: Level) {
        self.init(minimumLevel: minimumLevel, json: false, requestID: nil, sink: .standardError)
    }

    /// Reads `AWS_LAMBDA_LOG_FORMAT` and `AWS_LAMBDA_LOG_LEVEL`.
    static func fromEnvironment() -> Logger {
        let json = Environment.get("AWS_LAMBDA_LOG_FORMAT")?.uppercased() == "JSON"
        let level = Environment.nonEmpty("AWS_LAMBDA_LOG_LEVEL").flatMap(Level.init(name:)) ?? .info
        return Logger(minimumLevel: level, json: json)
    }

    func with(requestID: String?) -> Logger {
        var copy = self
        copy.requestID = requestID
        return copy
    }

    package func isEnabled(_ level: Level) -> Bool { level >= minimumLevel }

    /// Writes one JSON object as its own line, whatever the level and format: what CloudWatch
    /// reads as data (an embedded-metric-format record, an audit record), not a message.
    package func record(_ object: JSONValue) {
        var line = object.serialized()
        line.append(0x0a)
        sink.emit(line)
    }

    /// `fields` are extra key/values (strings or numbers), rendered as `key=value` in text mode.
    func log(_ level: Level, _ message: String, _ fields: [(String, JSONValue)] = []) {
        guard isEnabled(level) else { return }
        sink.emit(render(level, message, fields, nowMilliseconds: Clock.nowMilliseconds()))
    }

    /// The bytes of one log line, newline included. Fields never replace the four keys of
    /// Lambda's JSON shape (`timestamp`, `level`, `message`, `requestId`).
    func render(_ level: Level, _ message: String, _ fields: [(String, JSONValue)], nowMilliseconds: Int64) -> [UInt8] {
        var line: [UInt8]
        let now = ISO8601.format(milliseconds: nowMilliseconds, fractional: true)
        if json {
            var obj = JSONObject([
                ("timestamp", .string(now)), ("level", .string(level.name)), ("message", .string(message)),
            ])
            if let requestID { obj["requestId"] = .string(requestID) }
            for (k, v) in fields where k != "requestId" && obj[k] == nil { obj[k] = v }
            line = JSONValue.object(obj).serialized()
        } else {
            var text = "\(now) \(level.name)"
            if let requestID { text += " \(requestID)" }
            text += " \(message)"
            for (k, v) in fields {
                let rendered: String
                switch v {
                case .string(let s): rendered = s
                default: rendered = v.serializedString()
                }
                text += " \(k)=\(rendered)"
            }
            line = Array(text.utf8)
            // One entry per line: a control character (a newline in a message) becomes a space.
            for i in line.indices where line[i] < 0x20 { line[i] = 0x20 }
        }
        line.append(0x0a)
        return line
    }

    package func debug(_ m: String, _ f: [(String, JSONValue)] = []) { log(.debug, m, f) }
    package func info(_ m: String, _ f: [(String, JSONValue)] = []) { log(.info, m, f) }
    func warn(_ m: String, _ f: [(String, JSONValue)] = []) { log(.warn, m, f) }
    func error(_ m: String, _ f: [(String, JSONValue)] = []) { log(.error, m, f) }
}
