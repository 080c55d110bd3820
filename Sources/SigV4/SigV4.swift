import CryptoPrimitives
import PlatformSupport

/// The key pair (and, for a role session, the token) a request is signed with. `description`
/// never shows the secret or the token.
public struct SigningCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "SigningCredentials(\(accessKeyID), secret redacted\(sessionToken == nil ? "" : ", session token redacted"))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID]) }
}

/// A request as it will go on the wire, before signing.
public struct SignableRequest: Sendable {
    public var method: String
    /// The Host header value: lowercase host, with `:port` only when it is not the scheme's default.
    public var host: String
    /// The path exactly as sent, already percent-encoded (see `SigV4.encodePath`).
    public var path: String
    /// Query parameters, not encoded; the signer encodes and sorts them.
    public var query: [(name: String, value: String)]
    /// Extra headers to send and sign (Content-Type, x-amz-meta-*, If-Match, ...).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, host: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// What signing produced: every header to send (host, the request's own, the x-amz ones and
/// Authorization) and the encoded query string to put after `?`. The intermediate strings are kept
/// for the fixture tests; they contain the session token (a signed header), so never log them.
public struct SignedRequest: Sendable {
    public var headers: [(name: String, value: String)]
    public var queryString: String
    public var canonicalRequest: String
    public var stringToSign: String
    public var signature: String
    public var authorization: String
}

/// AWS Signature Version 4, header form ("Authorization: AWS4-HMAC-SHA256 ..."), as botocore's
/// `SigV4Auth` / `S3SigV4Auth` compute it. For S3 the canonical URI is the wire path verbatim
/// (encoded once, never normalized) and `x-amz-content-sha256` is always sent; for every other
/// service the path is normalized (dot segments and empty segments removed) and encoded again.
/// The derived signing key is cached per day, so a warm process pays four HMACs once a day.
public struct SigV4Signer: Sendable, CustomStringConvertible {
    public let service: String
    public let region: String
    private var cachedKeyScope: (date: String, secret: String)?
    private var cachedKey: [UInt8] = []
    private var cachedDate: (second: Int64, dateTime: String, day: String)?

    public init(service: String, region: String) {
        self.service = service
        self.region = region
    }

    public var isS3: Bool { service == "s3" }

    /// Never shows the cached signing key.
    public var description: String { "SigV4Signer(\(service), \(region))" }

    /// Headers botocore never signs (hop-by-hop, tracing, user agent): signing them would break
    /// as soon as a proxy or the HTTP layer touches them.
    static let unsignedHeaders: Set<String> = [
        "baggage", "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
        "traceparent", "tracestate", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
        "authorization",
    ]

    /// Signs `request` at `dateMilliseconds` (epoch, wall clock).
    public mutating func sign(_ request: SignableRequest, credentials: SigningCredentials, dateMilliseconds: Int64) -> SignedRequest {
        let (amzDate, day) = formattedDate(milliseconds: dateMilliseconds)
        var headers: [(name: String, value: String)] = [("Host", request.host)]
        headers.reserveCapacity(request.headers.count + 5)
        var givenPayloadHash: String?
        for h in request.headers {
            let lower = h.name.lowercasedASCII()
            if lower == "x-amz-content-sha256" { givenPayloadHash = h.value }
            // The signer owns these; a caller's copy would be signed twice or go stale.
            if lower == "host" || lower == "x-amz-date" || lower == "x-amz-security-token" || lower == "authorization"
                || (isS3 && lower == "x-amz-content-sha256") { continue }
            headers.append(h)
        }
        headers.append(("X-Amz-Date", amzDate))
        if let token = credentials.sessionToken { headers.append(("X-Amz-Security-Token", token)) }
        let payloadHash: String
        if isS3 {
            payloadHash = Hex.encode(SHA256.hash(request.body))
            headers.append(("X-Amz-Content-SHA256", payloadHash))
        } else {
            payloadHash = givenPayloadHash ?? Hex.encode(SHA256.hash(request.body))
        }

        // Canonical headers: lowercase names, sorted; values trimmed with inner runs of
        // whitespace collapsed; repeated names joined with ",".
        var byName: [(name: [UInt8], value: [UInt8])] = []
        byName.reserveCapacity(headers.count)
        for h in headers {
            let lower = h.name.lowercasedASCII()
            if Self.unsignedHeaders.contains(lower) { continue }
            let name = Array(lower.utf8)
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
        let canonicalURI = isS3 ? (request.path.isEmpty ? "/" : request.path) : SigV4.encode(SigV4.normalizePath(request.path), encodeSlash: false)
        let newline = UInt8(ascii: "\n")
        var canonical: [UInt8] = []
        canonical.reserveCapacity(512)
        canonical.append(contentsOf: request.method.uppercased().utf8); canonical.append(newline)
        canonical.append(contentsOf: canonicalURI.utf8); canonical.append(newline)
        canonical.append(contentsOf: queryString.utf8); canonical.append(newline)
        for h in byName {
            canonical.append(contentsOf: h.name); canonical.append(UInt8(ascii: ":"))
            canonical.append(contentsOf: h.value); canonical.append(newline)
        }
        canonical.append(newline)
        canonical.append(contentsOf: signedHeaderBytes); canonical.append(newline)
        canonical.append(contentsOf: payloadHash.utf8)

        let scope = day + "/" + region + "/" + service + "/aws4_request"
        var toSign: [UInt8] = Array("AWS4-HMAC-SHA256\n".utf8)
        toSign.reserveCapacity(160)
        toSign.append(contentsOf: amzDate.utf8); toSign.append(newline)
        toSign.append(contentsOf: scope.utf8); toSign.append(newline)
        toSign.append(contentsOf: Hex.encode(SHA256.hash(canonical)).utf8)
        let key = signingKey(day: day, secret: credentials.secretAccessKey)
        let signature = Hex.encode(HMACSHA256.authenticate(toSign, key: key))
        let signedHeaders = String(decoding: signedHeaderBytes, as: UTF8.self)
        let authorization = "AWS4-HMAC-SHA256 Credential=" + credentials.accessKeyID + "/" + scope
            + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature
        headers.append(("Authorization", authorization))
        return SignedRequest(headers: headers, queryString: queryString, canonicalRequest: String(decoding: canonical, as: UTF8.self),
                             stringToSign: String(decoding: toSign, as: UTF8.self), signature: signature, authorization: authorization)
    }

    /// The formatted date, reused within one second.
    private mutating func formattedDate(milliseconds: Int64) -> (String, String) {
        let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        if let cached = cachedDate, cached.second == second { return (cached.dateTime, cached.day) }
        let (dateTime, day) = ISO8601.amzDate(milliseconds: second * 1000)
        cachedDate = (second, dateTime, day)
        return (dateTime, day)
    }

    private mutating func signingKey(day: String, secret: String) -> [UInt8] {
        if let cached = cachedKeyScope, cached.date == day, cached.secret == secret { return cachedKey }
        let kDate = HMACSHA256.authenticate(Array(day.utf8), key: Array(("AWS4" + secret).utf8))
        let kRegion = HMACSHA256.authenticate(Array(region.utf8), key: kDate)
        let kService = HMACSHA256.authenticate(Array(service.utf8), key: kRegion)
        let key = HMACSHA256.authenticate(Array("aws4_request".utf8), key: kService)
        cachedKeyScope = (day, secret)
        cachedKey = key
        return key
    }
}

/// The encodings SigV4 and the AWS REST protocols share.
public enum SigV4 {
    /// Percent-encoding's digits are uppercase (RFC 3986 §2.1); `Hex.encode` writes lowercase.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986 percent-encoding of the UTF-8 bytes: `A-Z a-z 0-9 - _ . ~` stay, everything else
    /// becomes `%XX` (uppercase); `/` stays when `encodeSlash` is false (paths).
    public static func encode(_ text: String, encodeSlash: Bool = true) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case _ where ASCII.isAlphanumeric(b), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(b)
            case UInt8(ascii: "/") where !encodeSlash:
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An object key as an S3 path: each byte encoded once, `/` kept, nothing normalized.
    public static func encodePath(_ key: String) -> String { encode(key, encodeSlash: false) }

    /// Percent-decoding (for `encoding-type=url` list answers); nil on a malformed escape or
    /// bytes that are not UTF-8.
    public static func decode(_ text: String) -> String? {
        var out = [UInt8]()
        let b = Array(text.utf8)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "%") {
                guard i + 2 < b.count, let high = ASCII.hexDigitValue(b[i + 1]), let low = ASCII.hexDigitValue(b[i + 2]) else { return nil }
                out.append(high << 4 | low); i += 3
            } else if b[i] == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " ")); i += 1 // S3's url encoding-type writes spaces as "+"
            } else {
                out.append(b[i]); i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `name=value` pairs, encoded, sorted by name then value (byte order), joined with `&`.
    public static func canonicalQuery(_ params: [(name: String, value: String)]) -> String {
        let encoded = params.map { (encode($0.name), encode($0.value)) }
        let sorted = encoded.sorted { a, b in a.0 == b.0 ? bytesLess(a.1, b.1) : bytesLess(a.0, b.0) }
        return sorted.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
    }

    /// RFC 3986 §5.2.4 dot-segment removal plus removal of empty segments, as every AWS service
    /// but S3 expects (botocore's `normalize_url_path`).
    public static func normalizePath(_ path: String) -> String {
        if path.isEmpty { return "/" }
        var out: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { if !out.isEmpty { out.removeLast() }; continue }
            out.append(segment)
        }
        let lead = path.hasPrefix("/") ? "/" : ""
        let trail = path.hasSuffix("/") && !out.isEmpty ? "/" : ""
        return lead + out.joined(separator: "/") + trail
    }

    /// Trims leading and trailing whitespace and collapses inner runs to one space.
    static func trimAll(_ value: String) -> String { String(decoding: trimAll(bytes: value.utf8), as: UTF8.self) }

    /// SigV4's header-value rule: the shared ASCII trim (`ASCII.trimmingSpaces`), then every inner
    /// run of whitespace collapsed to one space.
    static func trimAll(bytes value: String.UTF8View) -> [UInt8] {
        let trimmed = ASCII.trimmingSpaces(value)
        let space = UInt8(ascii: " ")
        // Most values need nothing more: no whitespace inside but single spaces.
        var previousSpace = false
        let clean = !trimmed.contains { b in
            defer { previousSpace = b == space }
            return ASCII.isSpace(b) && (b != space || previousSpace)
        }
        if clean { return Array(trimmed) }
        var out = [UInt8]()
        out.reserveCapacity(trimmed.count)
        var pendingSpace = false
        for b in trimmed {
            if ASCII.isSpace(b) {
                pendingSpace = true
            } else {
                if pendingSpace { out.append(space); pendingSpace = false }
                out.append(b)
            }
        }
        return out
    }

    static func bytesLess(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
