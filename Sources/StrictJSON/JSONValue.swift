/// A JSON document as a value. Objects keep their member order (so output is stable and reads
/// like the contract) and never hold a key twice: the parser rejects duplicates, because two
/// parsers that disagree on which duplicate wins is a classic token-forgery vector.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's literal text as it appeared (or was produced): lossless for 64-bit integers.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    package static func int(_ v: Int64) -> JSONValue { .number(String(v)) }
    package static func int(_ v: Int) -> JSONValue { .number(String(v)) }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var isNull: Bool { self == .null }

    /// The number as an exact 64-bit integer: accepts `1700000000` and `1700000000.0`/`1.7e9`
    /// when they denote an integer in range; nil for anything else.
    package var int64Value: Int64? {
        guard case .number(let text) = self else { return nil }
        if let v = Int64(text) { return v }
        guard let d = Double(text), d.isFinite, d == d.rounded(), abs(d) < 9.0e15 else { return nil }
        return Int64(d)
    }

    package var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    package subscript(key: String) -> JSONValue? { objectValue?[key] }
}

/// An ordered JSON object with unique keys. Lookups scan linearly: the objects here are small.
/// Keys are compared by their UTF-8 bytes (RFC 8259 §8.3), not by Swift's `==`, which treats
/// canonically equivalent strings ("é" and "e" + U+0301, "K" and KELVIN SIGN) as equal.
package struct JSONObject: Equatable, Sendable, Sequence {
    private(set) var members: [(key: String, value: JSONValue)]

    package init() { members = [] }

    /// Builds an object; a later member with the same key replaces the earlier one's value.
    package init(_ members: [(String, JSONValue)]) {
        self.members = []
        for (k, v) in members { self[k] = v }
    }

    package var count: Int { members.count }
    package var keys: [String] { members.map(\.key) }

    package subscript(key: String) -> JSONValue? {
        get { members.first(where: { JSONObject.sameKey($0.key, key) })?.value }
        set {
            if let i = members.firstIndex(where: { JSONObject.sameKey($0.key, key) }) {
                if let v = newValue { members[i].value = v } else { members.remove(at: i) }
            } else if let v = newValue {
                members.append((key, v))
            }
        }
    }

    /// The lengths first (O(1) for native strings): most keys of an object differ in length, and
    /// building or reading an object compares its keys many times.
    @inline(__always) static func sameKey(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Over the contiguous bytes (a native string's, or a copy): the UTF8View's iterator cost
        // ~10 instructions a byte in every lookup.
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    /// Whether a member has this key (bytes compared, as `subscript` does).
    func contains(_ key: String) -> Bool { members.contains { JSONObject.sameKey($0.key, key) } }

    /// Appends without the uniqueness scan; the parser checks duplicates itself.
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) { members.append((key, value)) }

    package func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    package static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { sameKey($0.key, $1.key) && $0.value == $1.value }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .number(String(value)) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    package init(nilLiteral: ()) { self = .null }
}
