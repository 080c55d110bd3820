import CurlHTTP
import PlatformSupport
import SigV4

package struct AssumeRoleRequest: Sendable {
    package var roleARN: String
    package var sessionName: String
    package var durationSeconds: Int
    /// An inline session policy (JSON), narrowing the role's permissions.
    package var policy: String?
    var sourceIdentity: String?
    /// Session tags, in order.
    package var tags: [(String, String)]

    package init(
        roleARN: String, sessionName: String, durationSeconds: Int, policy: String? = nil,
        sourceIdentity: String? = nil, tags: [(String, String)] = []
    ) {
        self.roleARN = roleARN
        self.sessionName = sessionName
        self.durationSeconds = durationSeconds
        self.policy = policy
        self.sourceIdentity = sourceIdentity
        self.tags = tags
    }

    /// STS's documented limits, checked before sending so a bad argument costs no round trip.
    func problem() -> String? {
        guard roleARN.hasPrefix("arn:"), (20...2048).contains(roleARN.utf8.count), S3Client.isHeaderValue(roleARN)
        else { return "role ARN is malformed" }
        guard (2...64).contains(sessionName.utf8.count), sessionName.utf8.allSatisfy(Self.isSessionNameByte) else {
            return "role session name must be 2-64 characters of [A-Za-z0-9_=,.@+-]"
        }
        guard (900...43_200).contains(durationSeconds) else { return "session duration must be 900-43200 seconds" }
        if let policy {
            guard (1...10_240).contains(policy.utf8.count) else { return "session policy is empty or too long" }
        }
        if let sourceIdentity {
            guard (2...64).contains(sourceIdentity.utf8.count), sourceIdentity.utf8.allSatisfy(Self.isSessionNameByte)
            else {
                return "source identity must be 2-64 characters of [A-Za-z0-9_=,.@+-]"
            }
        }
        guard tags.count <= 50 else { return "at most 50 session tags" }
        for (key, value) in tags {
            guard (1...128).contains(key.unicodeScalars.count), value.unicodeScalars.count <= 256 else {
                return "session tag key or value too long"
            }
        }
        return nil
    }

    /// `[A-Za-z0-9_=,.@+-]`, STS's alphabet for session names and source identities.
    static func isSessionNameByte(_ b: UInt8) -> Bool {
        ASCII.isAlphanumeric(b) || Self.sessionNamePunctuation.contains(b)
    }

    private static let sessionNamePunctuation = Array("_=,.@+-".utf8)

    /// The form body, in STS's parameter names.
    var formParameters: [(name: String, value: String)] {
        var p: [(name: String, value: String)] = [
            ("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
            ("RoleSessionName", sessionName), ("DurationSeconds", String(durationSeconds)),
        ]
        if let policy { p.append(("Policy", policy)) }
        if let sourceIdentity { p.append(("SourceIdentity", sourceIdentity)) }
        for (n, (key, value)) in tags.enumerated() {
            p.append(("Tags.member.\(n + 1).Key", key))
            p.append(("Tags.member.\(n + 1).Value", value))
        }
        return p
    }
}

/// Credentials STS issued. `description` and reflection show the key id and expiry only.
package struct TemporaryCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String
    /// ISO-8601, as STS gives it (`2026-11-22T12:09:50Z`).
    package var expiration: String

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String, expiration: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    package var description: String {
        "TemporaryCredentials(\(accessKeyID), expires \(expiration), secret and token redacted)"
    }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID, "expiration": expiration]) }

    /// As credentials for another client (tests use this to act as the user).
    package var awsCredentials: AWSCredentials {
        AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, sessionToken: sessionToken)
    }
}

/// STS over the Query API (form POST), signed with the function's credentials.
package final class STSClient {
    let transport: SignedTransport
    let path: String

    static let defaultRequestTimeoutMilliseconds = 5_000

    package init(http: HTTPClient, config: AWSConfig, retry: RetryPolicy = .init()) {
        let endpoint = config.stsEndpoint
        path = endpoint.basePath.isEmpty ? "/" : endpoint.basePath + "/"
        transport = SignedTransport(
            http: http, credentials: config.credentials, service: "sts", region: config.region,
            scheme: endpoint.scheme, hostHeader: endpoint.hostHeader, authority: endpoint.authority,
            retry: retry, requestTimeoutCapMilliseconds: STSClient.defaultRequestTimeoutMilliseconds)
    }

    var requestTimeoutMilliseconds: Int {
        get { transport.requestTimeoutCapMilliseconds }
        set { transport.requestTimeoutCapMilliseconds = newValue }
    }

    package var attemptsSent: Int { transport.attemptsSent }

    /// `application/x-www-form-urlencoded` as botocore's query serializer writes it (Python's
    /// `urlencode`: space as `+`, everything outside `A-Za-z0-9_.-~` percent-encoded). Real STS
    /// reads `%20` too, but moto re-encodes the form this way when it checks the signature.
    static func formEncode(_ params: [(name: String, value: String)]) -> String {
        var out: [UInt8] = []
        for (n, p) in params.enumerated() {
            if n > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.append(p.name, spaceAsPlus: true, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(p.value, spaceAsPlus: true, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    package func assumeRole(_ r: AssumeRoleRequest, deadline: Deadline) throws(AWSError) -> TemporaryCredentials {
        try PreparedCall.run([prepareAssumeRole(r)], deadline: deadline)[0].get()
    }

    func prepareAssumeRole(_ r: AssumeRoleRequest) -> PreparedCall<TemporaryCredentials> {
        let request: Result<OperationRequest, AWSError>
        if let problem = r.problem() {
            request = .failure(.invalid(problem))
        } else {
            let body = Array(STSClient.formEncode(r.formParameters).utf8)
            request = .success(
                OperationRequest(
                    method: "POST", path: path,
                    headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")], body: body))
        }
        return PreparedCall(transport: transport, request: request, interpret: STSClient.credentials)
    }

    /// The credentials of an AssumeRole answer.
    package static func credentials(from response: HTTPResponse) throws(AWSError) -> TemporaryCredentials {
        guard let root = XMLReader.parse(response.body), root.name == "AssumeRoleResponse",
            let creds = root.path("AssumeRoleResult", "Credentials"),
            let id = creds["AccessKeyId"], let secret = creds["SecretAccessKey"], let token = creds["SessionToken"],
            let expiration = creds["Expiration"], !id.isEmpty, !secret.isEmpty, !token.isEmpty
        else {
            throw AWSError(
                kind: .other, message: "AssumeRole answer has no credentials",
                requestID: response.header("x-amzn-RequestId"), status: response.status)
        }
        return TemporaryCredentials(
            accessKeyID: id, secretAccessKey: secret, sessionToken: token, expiration: expiration)
    }
}
