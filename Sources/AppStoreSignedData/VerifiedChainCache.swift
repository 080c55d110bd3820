import CryptoPrimitives

/// Chains the verifier has accepted, keyed by the JWS header's encoded bytes, so that the next JWS
/// with the same header (the same leaf) costs one ES256 verification instead of a header parse,
/// two certificate parses and a chain walk (two P-384 signature checks). Sound because the header
/// bytes fix `alg` and `x5c`, and everything `X509ChainVerifier` checks is fixed by the two
/// certificates and the verifier's roots, except the validity periods: an entry answers only for times inside the
/// window all three certificates share; outside it the chain is verified again (and refused with
/// the reason). Bounded: the least recently used entry goes first. Not thread-safe (its verifier
/// is not).
struct VerifiedChainCache {
    struct Entry {
        let encodedHeader: [UInt8]
        let chain: X509VerifiedChain
        let key: P256PublicKey
    }

    /// Apple signs with a handful of leaves at a time; more than this many is not a warm path.
    let capacity: Int
    /// Most recently used last.
    private var entries: [Entry] = []

    init(capacity: Int) { self.capacity = capacity }

    /// The leaf key of a chain accepted earlier, if it holds at `time`.
    mutating func key(encodedHeader: ArraySlice<UInt8>, at time: Int64) -> P256PublicKey? {
        guard let i = entries.lastIndex(where: { $0.encodedHeader.elementsEqual(encodedHeader) }),
            entries[i].chain.isValid(at: time)
        else { return nil }
        if i != entries.count - 1 { entries.append(entries.remove(at: i)) }
        return entries[entries.count - 1].key
    }

    mutating func insert(_ entry: Entry) {
        guard capacity > 0 else { return }
        entries.removeAll { $0.encodedHeader == entry.encodedHeader }
        if entries.count >= capacity { entries.removeFirst() }
        entries.append(entry)
    }

    var count: Int { entries.count }
}
