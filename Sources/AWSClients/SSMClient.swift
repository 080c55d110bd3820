import CurlHTTP
import PlatformSupport
import StrictJSON

/// SSM Parameter Store's GetParameter over the JSON 1.1 protocol, signed with the function's
/// credentials: how a function reads a secret (the Sign in with Apple key) once at start-up
/// instead of from a plain environment variable. The value is never part of an error or a log.
package final class SSMClient {
    private let transport: SignedTransport
    private let path: String

    static let defaultRequestTimeoutMilliseconds = 5_000

    package init(http: HTTPClient, config: AWSConfig, retry: RetryPolicy = .init()) {
        let endpoint = config.ssmEndpoint
        path = endpoint.basePath.isEmpty ? "/" : endpoint.basePath + "/"
        transport = SignedTransport(
            http: http, credentials: config.credentials, service: "ssm", region: config.region,
            scheme: endpoint.scheme, hostHeader: endpoint.hostHeader, authority: endpoint.authority,
            retry: retry, requestTimeoutCapMilliseconds: SSMClient.defaultRequestTimeoutMilliseconds)
    }

    /// The parameter's value, decrypted (a SecureString). Names follow SSM's rules: 1–2048
    /// characters of `A-Za-z0-9_.-/` (a leading `/` for hierarchies).
    package func parameter(named name: String, deadline: Deadline) throws(AWSError) -> String {
        guard SSMParameterName.isValid(name) else {
            throw .invalid("parameter name must be 1-2048 characters of [A-Za-z0-9_./-]")
        }
        let body: JSONValue = .object(JSONObject([("Name", .string(name)), ("WithDecryption", .bool(true))]))
        let request = OperationRequest(
            method: "POST", path: path,
            headers: [("Content-Type", "application/x-amz-json-1.1"), ("X-Amz-Target", "AmazonSSM.GetParameter")],
            body: body.serialized())
        let call = PreparedCall(transport: transport, request: .success(request)) {
            response throws(AWSError) -> String in
            guard let answer = try? JSONParser.parse(response.body),
                let value = answer["Parameter"]?["Value"]?.stringValue
            else { throw AWSError(kind: .other, message: "GetParameter answer has no value", status: response.status) }
            return value
        }
        return try PreparedCall.run([call], deadline: deadline)[0].get()
    }
}
