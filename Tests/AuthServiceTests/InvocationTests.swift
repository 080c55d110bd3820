import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService

/// An HTTP payload v2 event as a Lambda Function URL sends it (trimmed to what matters).
func functionURLEvent(body: JSONValue, base64: JSONValue = .bool(false), version: String = "2.0") -> [UInt8] {
    let http: JSONValue = [
        "method": "POST", "path": "/", "protocol": "HTTP/1.1", "sourceIp": "192.0.2.1", "userAgent": "test",
    ]
    let context: JSONValue = [
        "accountId": "anonymous", "apiId": "abc", "domainName": "abc.lambda-url.us-east-1.on.aws",
        "http": http, "requestId": "r-1", "routeKey": "$default", "stage": "$default", "timeEpoch": 1_700_000_000_000,
    ]
    let event: JSONValue = [
        "version": .string(version), "routeKey": "$default", "rawPath": "/", "rawQueryString": "",
        "headers": ["content-type": "application/json", "host": "abc.lambda-url.us-east-1.on.aws"],
        "requestContext": context, "body": body, "isBase64Encoded": base64,
    ]
    return event.serialized()
}

private let signinEvent = #"{"provider":"apple","idToken":"x.y.z","intent":"auto"}"#

/// The shape and error (if any) an event is parsed into.
private func parsed(_ event: [UInt8]) -> (Invocation.Shape, ServiceError?, JSONObject?) {
    switch Invocation.parse(event) {
    case .success(let i): return (i.shape, nil, i.request.object)
    case .failure(let r): return (r.shape, r.error, nil)
    }
}

@Suite struct InvocationParsing {
    @Test func aDirectEventIsTheRequest() throws {
        let (shape, error, object) = parsed(Array(signinEvent.utf8))
        #expect(shape == .direct && error == nil)
        #expect(object?["provider"] == .string("apple"))
    }

    @Test(arguments: [
        "{\"version\":\"2.0\"}", "{\"version\":\"2.0\",\"requestContext\":{}}",
        "{\"version\":\"1.0\",\"requestContext\":{\"http\":{}}}",
        "{\"version\":2.0,\"requestContext\":{\"http\":{}}}",
        "{\"version\":\"2.0\",\"requestContext\":{\"http\":\"GET\"}}",
    ])
    func anyOtherObjectIsADirectInvoke(text: String) {
        let (shape, error, _) = parsed(Array(text.utf8))
        #expect(shape == .direct && error == nil)
    }

    @Test(arguments: ["not json", "", "[1,2]", "\"2.0\"", "{\"version\":\"2.0\",\"requestContext\":{\"http\":{}}"])
    func aDirectEventThatIsNotAnObjectIsInvalidRequest(text: String) {
        let (shape, error, _) = parsed(Array(text.utf8))
        #expect(shape == .direct && error?.code == .invalidRequest)
    }

    @Test func aFunctionURLBodyIsTheRequest() {
        let (shape, error, object) = parsed(functionURLEvent(body: .string(signinEvent)))
        #expect(shape == .functionURL && error == nil && object?["intent"] == .string("auto"))
        let (_, _, decoded) = parsed(
            functionURLEvent(body: .string(Base64.encode(Array(signinEvent.utf8))), base64: .bool(true)))
        #expect(decoded?["intent"] == .string("auto"))
    }

    @Test func aBase64FlagOfFalseKeepsTheTextAsIs() {
        let (_, error, _) = parsed(functionURLEvent(body: .string(Base64.encode(Array(signinEvent.utf8)))))
        #expect(error?.code == .invalidRequest, "base64 text read as JSON is not JSON")
    }

    @Test(arguments: [JSONValue.null, .string(""), .string("{not json")])
    func aMissingOrNonJSONBodyIsInvalidRequestAnsweredAsHTTP(body: JSONValue) {
        let (shape, error, _) = parsed(functionURLEvent(body: body))
        #expect(shape == .functionURL && error?.code == .invalidRequest)
    }

    @Test(arguments: ["not base64!", "eyJ", "eyJhIjoxfQ", "eyJhIjoxfQ=", " eyJhIjoxfQ==", "eyJh\nIjoxfQ=="])
    func badBase64IsInvalidRequestAndNeverEchoed(body: String) {
        let (shape, error, _) = parsed(functionURLEvent(body: .string(body), base64: .bool(true)))
        #expect(shape == .functionURL && error?.code == .invalidRequest)
        #expect(error.map { !$0.message.contains(body) } == true)
    }

    @Test(arguments: [
        JSONValue.number("1"), .object(JSONObject([("provider", .string("apple"))])), .array([]), .bool(true),
    ])
    func aNonStringBodyIsInvalidRequest(body: JSONValue) {
        #expect(parsed(functionURLEvent(body: body)).1?.code == .invalidRequest)
    }

    @Test(arguments: [JSONValue.string("true"), .number("1")])
    func aNonBooleanBase64FlagIsInvalidRequest(flag: JSONValue) {
        #expect(parsed(functionURLEvent(body: .string(signinEvent), base64: flag)).1?.code == .invalidRequest)
    }

    @Test func bodiesOverTheLimitAreRefusedAndExactlyTheLimitIsNot() {
        let big = "{\"pad\":\"" + String(repeating: "a", count: Invocation.maxEventBytes) + "\"}"
        #expect(parsed(functionURLEvent(body: .string(big))).1?.code == .invalidRequest)
        #expect(
            parsed(functionURLEvent(body: .string(Base64.encode(Array(big.utf8))), base64: .bool(true))).1?.code
                == .invalidRequest)
        let exact = "{\"pad\":\"" + String(repeating: "a", count: Invocation.maxEventBytes - 10) + "\"}"
        #expect(exact.utf8.count == Invocation.maxEventBytes)
        #expect(parsed(functionURLEvent(body: .string(Base64.encode(Array(exact.utf8))), base64: .bool(true))).1 == nil)
        #expect(parsed(Array(exact.utf8)).1 == nil)
        #expect(parsed(Array(big.utf8)).1?.code == .invalidRequest)
    }

    @Test func aHugePayloadIsRefusedBeforeParsingButKeepsItsShape() {
        let huge = String(repeating: "a", count: Invocation.maxRawEventBytes)
        let url = parsed(functionURLEvent(body: .string(huge)))
        #expect(url.0 == .functionURL && url.1?.code == .invalidRequest)
        let direct = parsed(JSONValue.object(JSONObject([("pad", .string(huge))])).serialized())
        #expect(direct.0 == .direct && direct.1?.code == .invalidRequest)
    }
}

@Suite struct InvocationAnswers {
    let envelope = Envelope.failure(
        ServiceError(.invalidRequest, "The event is not valid JSON."), requestID: "req-1", nowMilliseconds: 0)

    @Test func aDirectAnswerIsTheEnvelopeItself() {
        #expect(Invocation.Shape.direct.wrap(envelope, statusCode: 400) == envelope.serialized())
    }

    @Test func aFunctionURLAnswerCarriesStatusHeadersAndTheEnvelopeAsBody() throws {
        let response = try JSONParser.parse(Invocation.Shape.functionURL.wrap(envelope, statusCode: 400))
        #expect(response["statusCode"] == .number("400") && response["isBase64Encoded"] == .bool(false))
        #expect(response["headers"]?["content-type"] == .string("application/json"))
        #expect(response["headers"]?["cache-control"] == .string("no-store"))
        #expect(try JSONParser.parse(try #require(response["body"]?.stringValue)) == envelope)
    }

    @Test(arguments: ErrorCode.allCases)
    func everyErrorCodeHasItsHTTPStatus(code: ErrorCode) throws {
        let failure = Envelope.failure(ServiceError(code, "m"), requestID: "r", nowMilliseconds: 0)
        let response = try JSONParser.parse(Invocation.Shape.functionURL.wrap(failure, statusCode: code.httpStatus))
        #expect(response["statusCode"]?.int64Value == Int64(code.httpStatus))
    }
}
