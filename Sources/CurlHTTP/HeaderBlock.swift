/// An answer's header lines in one buffer, as curl delivered them, with where each name and value
/// lies in it: read in place, a lookup compares lengths before bytes. Lines without a colon are
/// dropped; a new status line (after `100 Continue`) starts the block again.
struct HeaderBlock: Sendable {
    /// Offsets into `bytes`: the name, and the value without the optional whitespace before it
    /// (RFC 9110 §5.6.3) or the line break after it.
    struct Field: Sendable {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []

    init() {}

    /// From name/value pairs (tests and stubs build answers so); names hold no `:`, as on the wire.
    init(_ headers: [(name: String, value: String)]) {
        for (name, value) in headers {
            var line = Array(name.utf8)
            line.append(contentsOf: ": ".utf8)
            line.append(contentsOf: value.utf8)
            line.withUnsafeBytes { append(line: $0) }
        }
    }

    /// Appends one line as curl hands it (with its CR LF).
    mutating func append(line data: UnsafeRawBufferPointer) {
        var end = data.count
        while end > 0, data[end - 1] == UInt8(ascii: "\n") || data[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end >= 5, data[0] == UInt8(ascii: "H"), data[1] == UInt8(ascii: "T"), data[2] == UInt8(ascii: "T"),
            data[3] == UInt8(ascii: "P"), data[4] == UInt8(ascii: "/")
        {
            // A new status line (after 100 Continue or a redirect): earlier headers are not this answer's.
            bytes.removeAll(keepingCapacity: true)
            fields.removeAll(keepingCapacity: true)
            return
        }
        guard let colon = data[..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        while valueStart < end, data[valueStart] == UInt8(ascii: " ") || data[valueStart] == UInt8(ascii: "\t") {
            valueStart += 1
        }
        if fields.isEmpty {
            // One allocation each for a usual answer's headers.
            bytes.reserveCapacity(1024)
            fields.reserveCapacity(16)
        }
        let base = Int32(bytes.count)
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[..<end]))
        fields.append(
            Field(
                nameStart: base, nameEnd: base + Int32(colon), valueStart: base + Int32(valueStart),
                valueEnd: base + Int32(end)))
    }

    /// Calls `body` with each header's name and value bytes, in order.
    func visit(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            for f in fields {
                body(
                    UnsafeBufferPointer(rebasing: all[Int(f.nameStart)..<Int(f.nameEnd)]),
                    UnsafeBufferPointer(rebasing: all[Int(f.valueStart)..<Int(f.valueEnd)]))
            }
        }
    }

    /// `read` of the value bytes of the first header whose name is `nameCount` bytes long and
    /// passes `matches`.
    func first<R>(
        nameCount: Int, where matches: (UnsafeBufferPointer<UInt8>) -> Bool,
        _ read: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R? {
        bytes.withUnsafeBufferPointer { all in
            for f in fields where Int(f.nameEnd - f.nameStart) == nameCount {
                guard matches(UnsafeBufferPointer(rebasing: all[Int(f.nameStart)..<Int(f.nameEnd)])) else { continue }
                return read(UnsafeBufferPointer(rebasing: all[Int(f.valueStart)..<Int(f.valueEnd)]))
            }
            return nil
        }
    }
}
