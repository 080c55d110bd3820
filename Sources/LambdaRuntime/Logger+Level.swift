extension Logger {
    /// Lambda's log levels, in order (`AWS_LAMBDA_LOG_LEVEL`).
    package enum Level: Int, Sendable, Comparable {
        case trace, debug, info, warn, error, fatal

        var name: String { ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"][rawValue] }

        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        init?(name: String) {
            switch name.uppercased() {
            case "TRACE": self = .trace
            case "DEBUG": self = .debug
            case "INFO": self = .info
            case "WARN", "WARNING": self = .warn
            case "ERROR": self = .error
            case "FATAL": self = .fatal
            default: return nil
            }
        }
    }
}
