import CryptoPrimitives
import PlatformSupport

/// AWS Signature Version 4, header form ("Authorization: AWS4-HMAC-SHA256 ..."), as botocore's
/// `SigV4Auth` / `S3SigV4Auth` compute it. For S3 the canonical URI is the wire path verbatim
/// (encoded once, never normalized) and `x-amz-content-sha256` is always sent; for every other
/// service the path is normalized (dot segments and empty segments removed) and encoded again.
/// The derived signing key is cached per day, so a warm process pays four HMACs once a day, and
/// the libcrypto contexts that hash and sign are kept between requests (`Contexts`).
package struct SigV4Signer: Sendable, CustomStringConvertible {
    let service: String
    let region: String
    private var contexts = Contexts()
    private var cachedDate: (second: Int64, dateTime: String, day: String)?

    /// The digest context and the day's keyed HMAC context. A class, so that `sign` does not copy
    /// them; copied on write: `sign` is mutating and first replaces a box that another copy of the
    /// signer still holds, so no two copies (or threads) ever use one context, which is what makes
    /// the unchecked Sendable sound.
    private final class Contexts: @unchecked Sendable {
        let digest = SHA256Hasher()
        var key: SigningKey?
    }

    /// The day's key, keyed into its HMAC context, and its credential scope
    /// (`day/region/service/aws4_request`).
    private struct SigningKey {
        var day: String
        var secret: String
        var mac: HMACSHA256Key
        var scope: [UInt8]
    }

    /// SHA-256 of nothing, the payload hash of every GET, HEAD and DELETE.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    package init(service: String, region: String) {
        self.service = service
        self.region = region
    }

    var isS3: Bool { service == "s3" }

    /// Never shows the cached signing key.
    package var description: String { "SigV4Signer(\(service), \(region))" }

    /// Headers botocore never signs (hop-by-hop, tracing, user agent): signing them would break
    /// as soon as a proxy or the HTTP layer touches them. Lowercased bytes: the signing loop compares each header's lowercased name with them (a
    /// length check rejects most at once) instead of hashing a lowercased String.
    static let unsignedHeaders: [[UInt8]] = [
        "baggage", "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
        "traceparent", "tracestate", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
        "authorization",
    ].map { Array($0.utf8) }

    /// The headers the signer writes itself; a caller's copy is dropped (`x-amz-content-sha256`
    /// only for S3, where the signer always computes it).
    func isOwnedBySigner(_ name: String) -> Bool {
        name.equalsIgnoringASCIICase("host") || name.equalsIgnoringASCIICase("x-amz-date")
            || name.equalsIgnoringASCIICase("x-amz-security-token") || name.equalsIgnoringASCIICase("authorization")
            || (isS3 && name.equalsIgnoringASCIICase("x-amz-content-sha256"))
    }

    /// Signs `request` at `dateMilliseconds` (epoch, wall clock).
    package mutating func sign(
        _ request: SignableRequest, credentials: SigningCredentials, dateMilliseconds: Int64
    ) -> SignedRequest {
        if !isKnownUniquelyReferenced(&contexts) { contexts = Contexts() }
        let (amzDate, day) = formattedDate(milliseconds: dateMilliseconds)
        var headers: [(name: String, value: String)] = [("Host", request.host)]
        headers.reserveCapacity(request.headers.count + 5)
        var givenPayloadHash: String?
        for h in request.headers {
            if h.name.equalsIgnoringASCIICase("x-amz-content-sha256") { givenPayloadHash = h.value }
            // The signer owns these; a caller's copy would be signed twice or go stale.
            if isOwnedBySigner(h.name) { continue }
            headers.append(h)
        }
        headers.append(("X-Amz-Date", amzDate))
        if let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let payloadHash: String
        if isS3 {
            payloadHash = hexHash(request.body)
            headers.append(("X-Amz-Content-SHA256", payloadHash))
        } else {
            payloadHash = givenPayloadHash ?? hexHash(request.body)
        }

        // Canonical headers: lowercase names, sorted; values trimmed with inner runs of
        // whitespace collapsed; repeated names joined with ",".
        var byName: [(name: [UInt8], value: [UInt8])] = []
        byName.reserveCapacity(headers.count)
        for h in headers {
            let name = h.name.utf8.map(ASCII.lowercased)
            if Self.unsignedHeaders.contains(name) { continue }
            let value = SigV4.trimAll(bytes: h.value.utf8)
            if let i = byName.firstIndex(where: { $0.name == name }) {
                byName[i].value.append(UInt8(ascii: ","))
                byName[i].value.append(contentsOf: value)
            } else {
                byName.append((name, value))
            }
        }
        byName.sort { $0.name.lexicographicallyPrecedes($1.name) }
        var signedHeaderBytes: [UInt8] = []
        for (n, h) in byName.enumerated() {
            if n > 0 { signedHeaderBytes.append(UInt8(ascii: ";")) }
            signedHeaderBytes.append(contentsOf: h.name)
        }

        let queryString = SigV4.canonicalQuery(request.query)
        let canonicalURI =
            isS3
            ? (request.path.isEmpty ? "/" : request.path)
            : SigV4.encode(SigV4.normalizePath(request.path), encodeSlash: false)
        let newline = UInt8(ascii: "\n")
        var canonical: [UInt8] = []
        canonical.reserveCapacity(512)
        canonical.append(contentsOf: request.method.utf8.map(ASCII.uppercased))
        canonical.append(newline)
        canonical.append(contentsOf: canonicalURI.utf8)
        canonical.append(newline)
        canonical.append(contentsOf: queryString.utf8)
        canonical.append(newline)
        for h in byName {
            canonical.append(contentsOf: h.name)
            canonical.append(UInt8(ascii: ":"))
            canonical.append(contentsOf: h.value)
            canonical.append(newline)
        }
        canonical.append(newline)
        canonical.append(contentsOf: signedHeaderBytes)
        canonical.append(newline)
        canonical.append(contentsOf: payloadHash.utf8)

        let key = signingKey(day: day, secret: credentials.secretAccessKey)
        var toSign: [UInt8] = Array("AWS4-HMAC-SHA256\n".utf8)
        toSign.reserveCapacity(160)
        toSign.append(contentsOf: amzDate.utf8)
        toSign.append(newline)
        toSign.append(contentsOf: key.scope)
        toSign.append(newline)
        toSign.append(contentsOf: Hex.encode(contexts.digest.hash(canonical)).utf8)
        let signature = Hex.encode(key.mac.authenticate(toSign))
        // Composed in one buffer: seven String concatenations cost ~7k instructions a request.
        var header: [UInt8] = Array("AWS4-HMAC-SHA256 Credential=".utf8)
        header.reserveCapacity(200 + signedHeaderBytes.count)
        header.append(contentsOf: credentials.accessKeyID.utf8)
        header.append(UInt8(ascii: "/"))
        header.append(contentsOf: key.scope)
        header.append(contentsOf: ", SignedHeaders=".utf8)
        header.append(contentsOf: signedHeaderBytes)
        header.append(contentsOf: ", Signature=".utf8)
        header.append(contentsOf: signature.utf8)
        let authorization = String(decoding: header, as: UTF8.self)
        headers.append(("Authorization", authorization))
        return SignedRequest(
            headers: headers, queryString: queryString, canonicalRequestBytes: canonical, stringToSignBytes: toSign,
            signature: signature, authorization: authorization)
    }

    /// The formatted date, reused within one second.
    private mutating func formattedDate(milliseconds: Int64) -> (String, String) {
        let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        if let cached = cachedDate, cached.second == second { return (cached.dateTime, cached.day) }
        let (dateTime, day) = ISO8601.amzDate(milliseconds: second * 1000)
        cachedDate = (second, dateTime, day)
        return (dateTime, day)
    }

    private func hexHash(_ body: [UInt8]) -> String {
        body.isEmpty ? Self.emptyPayloadHash : Hex.encode(contexts.digest.hash(body))
    }

    /// The day's signing key, keyed into its HMAC context once.
    private func signingKey(day: String, secret: String) -> SigningKey {
        if let cached = contexts.key, cached.day == day, cached.secret == secret { return cached }
        let kDate = HMACSHA256.authenticate(Array(day.utf8), key: Array(("AWS4" + secret).utf8))
        let kRegion = HMACSHA256.authenticate(Array(region.utf8), key: kDate)
        let kService = HMACSHA256.authenticate(Array(service.utf8), key: kRegion)
        let mac = HMACSHA256Key(HMACSHA256.authenticate(Array("aws4_request".utf8), key: kService))
        let key = SigningKey(
            day: day, secret: secret, mac: mac,
            scope: Array((day + "/" + region + "/" + service + "/aws4_request").utf8))
        contexts.key = key
        return key
    }
}
