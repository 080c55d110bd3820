import PlatformSupport

/// `application/x-www-form-urlencoded` bodies for Apple's token endpoints: RFC 3986 unreserved
/// bytes (`A-Z a-z 0-9 - _ . ~`) as they are, every other byte `%XX` (uppercase hex), so no value
/// can end a field (`&`, `=`) or turn into a space (`+`).
enum FormEncoding {
    static func body(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var out = [UInt8]()
        for (n, field) in fields.enumerated() {
            if n > 0 { out.append(UInt8(ascii: "&")) }
            encode(field.name, into: &out)
            out.append(UInt8(ascii: "="))
            encode(field.value, into: &out)
        }
        return out
    }

    static func encode(_ text: String, into out: inout [UInt8]) { PercentEncoding.append(text, to: &out) }
}
