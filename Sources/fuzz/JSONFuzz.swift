import StrictJSON

/// StrictJSON: whatever parses serializes to JSON that parses to an equal value, and serializing
/// that again gives the same bytes (`==` on strings is Unicode equivalence; the bytes are exact).
enum JSONFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let text = value.serialized()
        guard let again = try? JSONParser.parse(text) else {
            require(false, "json: the serialized value parses")
            return
        }
        require(again == value, "json: parse(serialize(x)) == x")
        require(again.serialized() == text, "json: serialize(parse(serialize(x))) == serialize(x)")
    }
}
