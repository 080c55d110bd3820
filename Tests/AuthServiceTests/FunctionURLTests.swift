import PlatformSupport
import StrictJSON
import Testing
@testable import AuthService

/// An HTTP payload v2 event as a Lambda Function URL sends it (trimmed to what matters).
private func functionURLEvent(body: JSONValue, base64: JSONValue = .bool(false), version: String = "2.0") -> [UInt8] {
    let http: JSONValue = ["method": "POST", "path": "/", "protocol": "HTTP/1.1", "sourceIp": "192.0.2.1", "userAgent": "test"]
    let context: JSONValue = ["accountId": "anonymous", "apiId": "abc", "domainName": "abc.lambda-url.us-east-1.on.aws",
                              "http": http, "requestId": "r-1", "routeKey": "$default", "stage": "$default", "timeEpoch": 1_700_000_000_000]
    let event: JSONValue = ["version": .string(version), "routeKey": "$default", "rawPath": "/", "rawQueryString": "",
                            "headers": ["content-type": "application/json", "host": "abc.lambda-url.us-east-1.on.aws"],
                            "requestContext": context, "body": body, "isBase64Encoded": base64]
    return event.serialized()
}

private let signinEvent = #"{"provider":"apple","idToken":"x.y.z","intent":"auto"}"#

private func unwrapError(_ event: [UInt8]) -> ServiceError? {
    do throws(ServiceError) { _ = try FunctionURLAdapter.unwrap(event); return nil } catch { return error }
}

@Suite struct FunctionURLUnwrap {
    @Test func directEventIsPassedThroughUnchanged() throws {
        let event = Array(signinEvent.utf8)
        let incoming = try FunctionURLAdapter.unwrap(event)
        #expect(incoming == IncomingEvent(shape: .direct, body: event))
        #expect(FunctionURLAdapter.shape(of: event) == .direct)
    }

    @Test(arguments: ["not json", "", "[1,2]", "\"2.0\"", "{\"version\":\"2.0\"}", "{\"version\":\"2.0\",\"requestContext\":{}}",
                      "{\"version\":\"1.0\",\"requestContext\":{\"http\":{}}}", "{\"version\":2.0,\"requestContext\":{\"http\":{}}}",
                      "{\"version\":\"2.0\",\"requestContext\":{\"http\":\"GET\"}}", "{\"version\":\"2.0\",\"requestContext\":{\"http\":{}}"])
    func anythingElseIsADirectInvoke(text: String) throws {
        let event = Array(text.utf8)
        let incoming = try FunctionURLAdapter.unwrap(event)
        #expect(incoming.shape == .direct)
        #expect(incoming.body == event)
    }

    @Test func plainBodyIsExtracted() throws {
        let event = functionURLEvent(body: .string(signinEvent))
        let incoming = try FunctionURLAdapter.unwrap(event)
        #expect(incoming == IncomingEvent(shape: .functionURL, body: Array(signinEvent.utf8)))
        #expect(FunctionURLAdapter.shape(of: event) == .functionURL)
    }

    @Test func base64BodyIsDecoded() throws {
        let event = functionURLEvent(body: .string(Base64.encode(Array(signinEvent.utf8))), base64: .bool(true))
        let incoming = try FunctionURLAdapter.unwrap(event)
        #expect(incoming == IncomingEvent(shape: .functionURL, body: Array(signinEvent.utf8)))
    }

    @Test func base64FlagFalseKeepsTheTextAsIs() throws {
        let encoded = Base64.encode(Array(signinEvent.utf8))
        let incoming = try FunctionURLAdapter.unwrap(functionURLEvent(body: .string(encoded)))
        #expect(incoming.body == Array(encoded.utf8))
    }

    @Test(arguments: [JSONValue.null, .string("")])
    func missingOrEmptyBodyIsAnEmptyEvent(body: JSONValue) throws {
        let incoming = try FunctionURLAdapter.unwrap(functionURLEvent(body: body))
        #expect(incoming == IncomingEvent(shape: .functionURL, body: []))
        // ... which EventReader then refuses as not JSON.
        #expect(throws: ServiceError.self) { _ = try EventReader(incoming.body) }
    }

    @Test func notJSONBodyIsLeftToEventReader() throws {
        let incoming = try FunctionURLAdapter.unwrap(functionURLEvent(body: "{not json"))
        #expect(incoming.shape == .functionURL)
        var code: ErrorCode?
        do throws(ServiceError) { _ = try EventReader(incoming.body) } catch { code = error.code }
        #expect(code == .invalidRequest)
    }

    @Test(arguments: ["not base64!", "eyJ", "eyJhIjoxfQ", "eyJhIjoxfQ=", " eyJhIjoxfQ==", "eyJh\nIjoxfQ=="])
    func badBase64BodyIsInvalidRequest(body: String) {
        let error = unwrapError(functionURLEvent(body: .string(body), base64: .bool(true)))
        #expect(error?.code == .invalidRequest)
        #expect(error.map { !$0.message.contains(body) } == true)
    }

    @Test(arguments: [JSONValue.number("1"), .object(JSONObject([("provider", .string("apple"))])), .array([]), .bool(true)])
    func nonStringBodyIsInvalidRequest(body: JSONValue) {
        #expect(unwrapError(functionURLEvent(body: body))?.code == .invalidRequest)
    }

    @Test(arguments: [JSONValue.string("true"), .number("1")])
    func nonBooleanBase64FlagIsInvalidRequest(flag: JSONValue) {
        #expect(unwrapError(functionURLEvent(body: .string(signinEvent), base64: flag))?.code == .invalidRequest)
    }

    @Test func bodyOverTheEventLimitIsInvalidRequest() throws {
        let big = "{\"pad\":\"" + String(repeating: "a", count: EventReader.maxEventBytes) + "\"}"
        #expect(unwrapError(functionURLEvent(body: .string(big)))?.code == .invalidRequest)
        #expect(unwrapError(functionURLEvent(body: .string(Base64.encode(Array(big.utf8))), base64: .bool(true)))?.code == .invalidRequest)
        // Exactly at the limit is still accepted.
        let exact = "{\"pad\":\"" + String(repeating: "a", count: EventReader.maxEventBytes - 10) + "\"}"
        #expect(exact.utf8.count == EventReader.maxEventBytes)
        let incoming = try FunctionURLAdapter.unwrap(functionURLEvent(body: .string(Base64.encode(Array(exact.utf8))), base64: .bool(true)))
        #expect(incoming.body.count == EventReader.maxEventBytes)
    }

    @Test func hugePayloadIsRefusedBeforeParsingButKeepsItsShape() {
        let huge = String(repeating: "a", count: FunctionURLAdapter.maxRawEventBytes)
        let url = functionURLEvent(body: .string(huge))
        #expect(unwrapError(url)?.code == .invalidRequest)
        #expect(FunctionURLAdapter.shape(of: url) == .functionURL)
        let direct = JSONValue.object(JSONObject([("pad", .string(huge))])).serialized()
        #expect(unwrapError(direct)?.code == .invalidRequest)
        #expect(FunctionURLAdapter.shape(of: direct) == .direct)
    }
}

@Suite struct FunctionURLWrap {
    let envelope = Envelope.failure(ServiceError(.invalidRequest, "The event is not valid JSON."), requestID: "req-1", nowMilliseconds: 0)

    @Test func directAnswerIsTheEnvelopeItself() {
        #expect(FunctionURLAdapter.wrap(envelope, statusCode: 400, shape: .direct) == envelope.serialized())
    }

    @Test func functionURLAnswerCarriesStatusHeadersAndTheEnvelopeAsBody() throws {
        let bytes = FunctionURLAdapter.wrap(envelope, statusCode: 400, shape: .functionURL)
        let response = try JSONParser.parse(bytes)
        #expect(response["statusCode"] == .number("400"))
        #expect(response["isBase64Encoded"] == .bool(false))
        #expect(response["headers"]?["content-type"] == .string("application/json"))
        #expect(response["headers"]?["cache-control"] == .string("no-store"))
        let body = try #require(response["body"]?.stringValue)
        #expect(try JSONParser.parse(body) == envelope)
    }

    @Test(arguments: ErrorCode.allCases)
    func everyErrorCodeMapsToItsHTTPStatus(code: ErrorCode) throws {
        let failure = Envelope.failure(ServiceError(code, "m"), requestID: "r", nowMilliseconds: 0)
        let response = try JSONParser.parse(FunctionURLAdapter.wrap(failure, statusCode: code.httpStatus, shape: .functionURL))
        #expect(response["statusCode"]?.int64Value == Int64(code.httpStatus))
    }

    @Test func roundTripThroughUnwrapAndWrap() throws {
        let event = functionURLEvent(body: .string(Base64.encode(Array("not json".utf8))), base64: .bool(true))
        let incoming = try FunctionURLAdapter.unwrap(event)
        var failure: ServiceError?
        do throws(ServiceError) { _ = try EventReader(incoming.body) } catch { failure = error }
        let error = try #require(failure)
        let answer = FunctionURLAdapter.wrap(Envelope.failure(error, requestID: "r", nowMilliseconds: 0), statusCode: error.code.httpStatus, shape: incoming.shape)
        let response = try JSONParser.parse(answer)
        #expect(response["statusCode"] == .number("400"))
        let body = try JSONParser.parse(try #require(response["body"]?.stringValue))
        #expect(body["error"]?["code"] == .string("INVALID_REQUEST"))
        #expect(body["success"] == .bool(false))
    }
}
