import PlatformSupport

/// PlatformSupport's ISO-8601 parser: no trap; a timestamp it reads is one it can write and read
/// back (stored documents write every time they read).
enum ISO8601Fuzz {
    static func run(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self), let ms = ISO8601.parse(text) else { return }
        require(ISO8601.parse(ISO8601.format(milliseconds: ms, fractional: true)) == ms, "iso8601: format then parse")
        let seconds = ms - ((ms % 1000) + 1000) % 1000
        require(ISO8601.parse(ISO8601.format(milliseconds: ms)) == seconds, "iso8601: whole-second format then parse")
    }

    static let seeds: [(name: String, bytes: [UInt8])] = [
        ("z", "2026-11-22T11:09:50Z"), ("fraction", "2026-11-22T11:09:50.123Z"),
        ("long-fraction", "2026-11-22T11:09:50.123456789Z"), ("offset", "2026-11-22T11:09:50+05:30"),
        ("negative-offset", "1999-12-31T23:59:59.9-08:00"), ("leap-day", "2024-02-29T00:00:00z"),
        ("leap-second", "2016-12-31T23:59:60Z"), ("epoch", "1970-01-01T00:00:00.000Z"),
        ("year-zero", "0000-01-01T00:00:00Z"), ("year-9999", "9999-12-31T23:59:59.999Z"),
    ].map { ($0.0, Array($0.1.utf8)) }
}
