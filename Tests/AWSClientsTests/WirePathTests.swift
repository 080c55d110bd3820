import CurlHTTP
import PlatformSupport
import SigV4
import StrictJSON
import Testing

@testable import AWSClients

/// Issue 23, defect 1: every request that addresses a key by its path arrives with exactly the
/// path it was signed with. A loopback stub records each request as it arrived (the raw request
/// target and the headers); the test then checks the signature as S3 does, from those bytes only:
/// a path that curl had changed on the way (`photos/../video.mov` sent as `/video.mov`) no longer
/// matches its signature, which is the 403 that stopped every purge.
@Suite struct WirePathTests {
    static let credentials = SigningCredentials(
        accessKeyID: "AKIDSTUB", secretAccessKey: "stub-secret", sessionToken: "stub-token")

    /// Keys a user's credentials may write under their prefix, as the purge lists them.
    static let listedKeys = [
        "users/u/photos/../video.mov", "users/u/photos/./a.jpg", "users/u/photos/ctl\u{1}/../x.jpg",
        "users/u/photos/..", "users/u/photos//double", "users/u/photos/trailing/", "users/u/.",
        "users/u/%2E%2E/p%25+q r",
        "users/u/photos/caf\u{E9}.jpg", "users/u/photos/cafe\u{301}.jpg",
    ]

    @Test func everyKeyAddressingRequestArrivesWithTheSignedPath() throws {
        let stub = try Stub(["*": ["200"]])
        defer { stub.stop() }
        let s3 = S3Client(http: try HTTPClient(), config: try stub.config(), bucket: "photo-identities")
        let deadline = Deadline.after(milliseconds: 20_000)
        var calls: [AWSCall] = []
        for key in Self.listedKeys {
            calls.append(.s3DeleteListedVersion(S3ObjectVersion(key: key, versionID: "v1")))
            calls.append(.s3AbortUpload(S3Upload(key: key, uploadID: "upload.1")))
        }
        // The service's own keys take the same path through the same transport.
        let own = "users/0f8fad5b-d9cb-469f-a165-70867728950e/account/providers.json"
        calls += [
            .s3Get(key: own), .s3Put(S3Put(key: own, body: Array("{}".utf8), contentType: "application/json")),
            .s3Delete(key: own, condition: .version("v.2")),
        ]
        let batch = AWSBatch(s3: s3, sts: STSClient(http: try HTTPClient(), config: try stub.config()))
        let results = batch.run(calls, deadline: deadline)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        let expected =
            Self.listedKeys.flatMap { key in
                ["/photo-identities/" + SigV4.encodePath(key), "/photo-identities/" + SigV4.encodePath(key)]
            } + Array(repeating: "/photo-identities/" + own, count: 3)
        let arrived = try stub.child.ask("stats")["requests"]?.arrayValue ?? []
        #expect(arrived.count == calls.count)
        // The batch overlaps its requests: match each arrival to its call by method and target.
        var unmatched = expected
        for request in arrived {
            let target = request["path"]?.stringValue ?? ""
            let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if let i = unmatched.firstIndex(of: path) {
                unmatched.remove(at: i)
            } else {
                Issue.record("a request arrived for \(path.debugDescription), which nothing was signed for")
            }
            let body: [UInt8] = request["method"]?.stringValue == "PUT" ? Array("{}".utf8) : []
            #expect(Self.signatureHolds(request, body: body), "signature of \(target.debugDescription)")
        }
        #expect(unmatched.isEmpty, "never arrived as signed: \(unmatched)")
    }

    /// Whether the recorded request's `Authorization` is what SigV4 gives for the request as it
    /// arrived: its method, raw path and query, the headers it names as signed, its date.
    static func signatureHolds(_ request: JSONValue, body: [UInt8]) -> Bool {
        let headers = (request["headers"]?.arrayValue ?? []).compactMap { pair -> (String, String)? in
            guard let name = pair.arrayValue?.first?.stringValue, let value = pair.arrayValue?.last?.stringValue else {
                return nil
            }
            return (name, value)
        }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercasedASCII() == name }?.1 }
        guard let authorization = header("authorization"), let host = header("host"),
            let amzDate = header("x-amz-date"), let method = request["method"]?.stringValue,
            let target = request["path"]?.stringValue,
            let signedList = authorization.split(separator: " ").first(where: { $0.hasPrefix("SignedHeaders=") })
        else { return false }
        let signed = Set(signedList.dropFirst("SignedHeaders=".count).dropLast().split(separator: ";").map(String.init))
        let owned: Set<String> = ["host", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256"]
        let given = headers.filter {
            signed.contains($0.0.lowercasedASCII()) && !owned.contains($0.0.lowercasedASCII())
        }
        .map { (name: $0.0, value: $0.1) }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query: [(name: String, value: String)] =
            parts.count < 2 || parts[1].isEmpty
            ? []
            : parts[1].split(separator: "&").map { item in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (SigV4.decode(String(pair[0])) ?? "", pair.count > 1 ? SigV4.decode(String(pair[1])) ?? "" : "")
            }
        // 20261123T100000Z → 2026-11-23T10:00:00Z
        let d = Array(amzDate)
        guard d.count == 16,
            let ms = ISO8601.parse(
                String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8]) + "T" + String(d[9..<11]) + ":"
                    + String(d[11..<13]) + ":" + String(d[13..<15]) + "Z")
        else { return false }
        var signer = SigV4Signer(service: "s3", region: "us-east-1")
        let again = signer.sign(
            SignableRequest(
                method: method, host: host, path: String(parts[0]), query: query, headers: given, body: body),
            credentials: credentials, dateMilliseconds: ms)
        return again.authorization == authorization
    }
}
