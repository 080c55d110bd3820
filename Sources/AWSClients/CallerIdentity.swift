import CurlHTTP
import PlatformSupport

/// STS GetCallerIdentity's answer: who the credentials belong to (authctl's audit lines).
package struct CallerIdentity: Sendable, Equatable {
    package var arn: String
    package var account: String
    package var userID: String
}

extension STSClient {
    /// GetCallerIdentity: needs no permission (AWS allows it to every principal).
    package func callerIdentity(deadline: Deadline) throws(AWSError) -> CallerIdentity {
        let body = Array(STSClient.formEncode([("Action", "GetCallerIdentity"), ("Version", "2011-06-15")]).utf8)
        let request = OperationRequest(
            method: "POST", path: path,
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")], body: body)
        let call = PreparedCall(transport: transport, request: .success(request), interpret: STSClient.callerIdentity)
        return try PreparedCall.run([call], deadline: deadline)[0].get()
    }

    package static func callerIdentity(from response: HTTPResponse) throws(AWSError) -> CallerIdentity {
        guard let root = XMLReader.parse(response.body), root.name == "GetCallerIdentityResponse",
            let result = root.path("GetCallerIdentityResult"), let arn = result["Arn"], !arn.isEmpty
        else {
            throw AWSError(
                kind: .other, message: "GetCallerIdentity answer has no Arn",
                requestID: response.header("x-amzn-RequestId"), status: response.status)
        }
        return CallerIdentity(arn: arn, account: result["Account"] ?? "", userID: result["UserId"] ?? "")
    }
}
