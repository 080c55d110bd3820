/// ISO-8601 / RFC 3339 UTC timestamps ("2026-11-22T11:09:50.123Z"), formatted and parsed by hand
/// (civil-from-days arithmetic) because the functions carry no Foundation.
package enum ISO8601 {
    /// `2026-11-22T11:09:50Z`, or with `.123` when `fractional` is true.
    package static func format(milliseconds: Int64, fractional: Bool = false) -> String {
        let seconds = floorDiv(milliseconds, 1000)
        let millis = Int(milliseconds - seconds * 1000)
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (y, m, d) = civil(fromDays: days)
        guard (0...9999).contains(y) else { return formatPadded(Int(y), m, d, secondOfDay, millis, fractional) }
        // Digits written into one buffer: a String per field and per `+` cost ~7k instructions a
        // timestamp, and a sign-in writes four.
        return String(unsafeUninitializedCapacity: fractional ? 24 : 20) { out in
            func put(_ value: Int, _ width: Int, at index: Int) {
                var v = value
                for k in stride(from: index + width - 1, through: index, by: -1) {
                    out[k] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            put(Int(y), 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(m, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(d, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, 2, at: 17)
            var end = 19
            if fractional {
                out[19] = UInt8(ascii: ".")
                put(millis, 3, at: 20)
                end = 23
            }
            out[end] = UInt8(ascii: "Z")
            return end + 1
        }
    }

    /// Years outside 0000-9999, as `format` always wrote them (the parser refuses them).
    private static func formatPadded(
        _ y: Int, _ m: Int, _ d: Int, _ secondOfDay: Int, _ millis: Int, _ fractional: Bool
    )
        -> String
    {
        var out = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fractional { out += "." + pad(millis, 3) }
        return out + "Z"
    }

    package static func format(seconds: Int64) -> String { format(milliseconds: seconds * 1000) }

    /// The compact forms SigV4 uses: `20261122T110950Z` and `20261122`.
    package static func amzDate(milliseconds: Int64) -> (dateTime: String, date: String) {
        let compact = String(
            decoding: format(milliseconds: milliseconds).utf8.filter {
                $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":")
            }, as: UTF8.self)
        return (compact, String(decoding: compact.utf8.prefix(8), as: UTF8.self))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)` into milliseconds since the epoch.
    package static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard ASCII.isDigit(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - UInt8(ascii: "0"))
            }
            return v
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":"), plus = UInt8(ascii: "+")
        guard b.count >= 20, let y = num(0, 4), b[4] == dash, let mo = num(5, 2), b[7] == dash, let d = num(8, 2),
            ASCII.lowercased(b[10]) == UInt8(ascii: "t"), let h = num(11, 2), b[13] == colon, let mi = num(14, 2),
            b[16] == colon,
            let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        var millis = 0
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, ASCII.isDigit(b[i]) {
                if digits < 3 { millis = millis * 10 + Int(b[i] - UInt8(ascii: "0")) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            // (`for _ in digits..<3` would trap on a range with lower > upper for 4+ digits.)
            var scale = digits
            while scale < 3 {
                millis *= 10
                scale += 1
            }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if ASCII.lowercased(b[i]) == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == plus || b[i] == dash, let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == colon,
            let om = num(i + 4, 2),
            oh < 24, om < 60
        {
            offset = (oh * 60 + om) * 60 * (b[i] == plus ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count, d <= daysInMonth(Int64(y), mo) else { return nil }  // no Feb 30, no Feb 29 of 2100
        let days = days(fromCivil: Int64(y), mo, d)
        let secs = days * 86_400 + Int64(h * 3600 + mi * 60 + s) - Int64(offset)
        let ms = secs * 1000 + Int64(millis)
        // An offset can move a time at either end of 0000-9999 out of it; `format` writes four-digit
        // years only, so such a time would be stored in a form this parser refuses (found by fuzzing).
        guard (Self.earliestMilliseconds...Self.latestMilliseconds).contains(ms) else { return nil }
        return ms
    }

    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the times `format` writes with four-digit years.
    static let earliestMilliseconds: Int64 = days(fromCivil: 0, 1, 1) * 86_400_000
    static let latestMilliseconds: Int64 = days(fromCivil: 10_000, 1, 1) * 86_400_000 - 1

    // Howard Hinnant's algorithms, valid for the proleptic Gregorian calendar.
    static func civil(fromDays z0: Int64) -> (Int64, Int, Int) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func days(fromCivil y0: Int64, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = Int64(m > 2 ? m - 3 : m + 9)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysInMonth(_ y: Int64, _ m: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
