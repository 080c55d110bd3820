import Foundation

/// A device clock the test sets: `offset` from the real time (a device clock hours off), moved on demand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval

    init(offset: TimeInterval = 0) { self.offset = offset }

    func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
    func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
}
