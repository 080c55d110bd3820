/// Byte classes over ASCII, by name: configuration, S3 names, hosts and identifiers are checked
/// byte by byte (Unicode properties would link the stdlib's tables into the bootstrap).
public enum ASCII {
    public static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    public static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    public static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    public static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isLower(b) || isUpper(b) }
    /// `0-9a-f`: the hex this service writes (session ids, hashes, UUIDs).
    public static func isLowerHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x61 && b <= 0x66) }
    /// Space, tab and the line breaks (`\t \n \v \f \r`).
    public static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    /// Printable ASCII, space included (what an HTTP header value may hold here).
    public static func isPrintable(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F }
}
