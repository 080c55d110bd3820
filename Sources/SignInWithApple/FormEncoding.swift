import PlatformSupport

/// `application/x-www-form-urlencoded` bodies for Apple's token endpoints: RFC 3986 unreserved
/// bytes (`A-Z a-z 0-9 - _ . ~`) as they are, every other byte `%XX` (uppercase hex), so no value
/// can end a field (`&`, `=`) or turn into a space (`+`).
enum FormEncoding {
    static func body(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var out = [UInt8]()
        for (n, field) in fields.enumerated() {
            if n > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.append(field.name, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(field.value, to: &out)
        }
        return out
    }
}
