/// The three parts of a JWS in compact serialization (RFC 7515 §7.1), split at its first two dots
/// and not yet decoded: the one splitter behind ID tokens, Apple's notification JWTs and App Store
/// signed data.
package struct CompactJWSParts {
    package enum Problem: Error {
        /// Not exactly two dots.
        case notThreeParts
        /// A part is empty (an unsigned token has an empty signature).
        case emptyPart
    }

    package let header: ArraySlice<UInt8>
    package let payload: ArraySlice<UInt8>
    package let signature: ArraySlice<UInt8>
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes the signature covers.
    package let signingInput: ArraySlice<UInt8>

    package init(_ bytes: [UInt8]) throws(Problem) {
        var dots: [Int] = []
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: ".") {
            dots.append(i)
            if dots.count > 2 { break }
        }
        guard dots.count == 2 else { throw .notThreeParts }
        header = bytes[..<dots[0]]
        payload = bytes[(dots[0] + 1)..<dots[1]]
        signature = bytes[(dots[1] + 1)...]
        signingInput = bytes[..<dots[1]]
        guard !header.isEmpty, !payload.isEmpty, !signature.isEmpty else { throw .emptyPart }
    }
}
