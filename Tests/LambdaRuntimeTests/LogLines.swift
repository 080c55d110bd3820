import Synchronization

@testable import LambdaRuntime

/// Collects what a `Logger` writes, line by line (the sink is `@Sendable`, hence the mutex).
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])

    var sink: LogSink {
        LogSink { [self] line in
            self.storage.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
        }
    }

    var lines: [String] { storage.withLock { $0 } }

    func logger(_ level: Logger.Level = .info, json: Bool = false) -> Logger {
        Logger(minimumLevel: level, json: json, sink: sink)
    }
}
