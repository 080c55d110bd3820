import PlatformSupport
import StrictJSON
import Testing

@testable import AuthService

/// A Function URL request to Sign in with Apple's return URL, as Apple's browser form_post makes it.
func appleReturnEvent(
    form: String, method: String = "POST", path: String = "/apple/callback", query: String = "",
    contentType: String = "application/x-www-form-urlencoded"
) -> [UInt8] {
    let http: JSONValue = [
        "method": .string(method), "path": .string(path), "protocol": "HTTP/1.1", "sourceIp": "192.0.2.1",
        "userAgent": "Mozilla/5.0",
    ]
    let event: JSONValue = [
        "version": "2.0", "routeKey": "$default", "rawPath": .string(path), "rawQueryString": .string(query),
        "headers": ["content-type": .string(contentType), "origin": "https://appleid.apple.com"],
        "requestContext": ["http": http, "requestId": "r-1"], "body": .string(form), "isBase64Encoded": false,
    ]
    return event.serialized()
}

@Suite struct AppleWebReturnTests {
    static let token = "eyJraWQiOiJZdXlYb1kiLCJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2FwcGxlaWQuYXBwbGUuY29tIn0.c2ln"
    static let user = #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"ada@privaterelay.appleid.com"}"#
    static let appLink = try! AppleWebReturnTarget("https://photos.example.com/apple-return")

    static func form(_ fields: [(String, String)]) -> String {
        fields.map { name, value in
            var out: [UInt8] = []
            PercentEncoding.append(value, to: &out)
            return name + "=" + String(decoding: out, as: UTF8.self)
        }.joined(separator: "&")
    }

    static let apples = form([
        ("state", "s-123"), ("code", "c0a1b2.0.abcd.xyz"), ("id_token", token), ("user", user),
    ])

    func answer(_ event: [UInt8], target: AppleWebReturnTarget? = appLink) -> (Int64?, JSONObject?) {
        let (response, _) = AppleWebReturn.answer(event, target: target)
        let object = (try? JSONParser.parse(response))?.objectValue
        return (object?["statusCode"]?.int64Value, object?["headers"]?.objectValue)
    }

    @Test func applesFormRedirectsToTheTargetWithTheFieldsInTheFragment() throws {
        let event = appleReturnEvent(form: Self.apples)
        #expect(AppleWebReturn.isReturnURLRequest(event))
        let (status, headers) = answer(event)
        #expect(status == 303)
        let location = try #require(headers?["location"]?.stringValue)
        var encodedUser: [UInt8] = []
        PercentEncoding.append(Self.user, to: &encodedUser)
        #expect(
            location == "https://photos.example.com/apple-return#id_token=\(Self.token)&code=c0a1b2.0.abcd.xyz"
                + "&state=s-123&user=\(String(decoding: encodedUser, as: UTF8.self))")
        #expect(
            headers?["cache-control"] == .string("no-store") && headers?["referrer-policy"] == .string("no-referrer"))
    }

    @Test func applesCancellationRedirectsWithTheError() throws {
        let (status, headers) = answer(
            appleReturnEvent(form: Self.form([("error", "user_cancelled_authorize"), ("state", "s-1")])))
        #expect(status == 303)
        #expect(
            headers?["location"]?.stringValue
                == "https://photos.example.com/apple-return#state=s-1&error=user_cancelled_authorize")
    }

    @Test func anIntentTargetGetsTheFieldsInItsDataURIsQuery() throws {
        let target = try AppleWebReturnTarget(
            "intent://apple-return#Intent;scheme=photos;package=com.example.photos;end")
        let (status, headers) = answer(
            appleReturnEvent(form: Self.form([("id_token", Self.token), ("state", "s")])), target: target)
        #expect(status == 303)
        #expect(
            headers?["location"]?.stringValue
                == "intent://apple-return?id_token=\(Self.token)&state=s#Intent;scheme=photos;package=com.example.photos;end"
        )
    }

    @Test(arguments: [
        ("GET", "", "application/x-www-form-urlencoded", AppleWebReturnTests.apples),
        ("POST", "target=https%3A%2F%2Fevil.example", "application/x-www-form-urlencoded", AppleWebReturnTests.apples),
        ("POST", "", "application/json", AppleWebReturnTests.apples),
        ("POST", "", "application/x-www-form-urlencoded", AppleWebReturnTests.form([("code", "c"), ("state", "s")])),
        (
            "POST", "", "application/x-www-form-urlencoded",
            AppleWebReturnTests.form([("id_token", AppleWebReturnTests.token)])
        ),
        ("POST", "", "application/x-www-form-urlencoded", AppleWebReturnTests.apples + "&state=again"),
        (
            "POST", "", "application/x-www-form-urlencoded",
            AppleWebReturnTests.form([("id_token", "not-a-jwt"), ("state", "s")])
        ),
        (
            "POST", "", "application/x-www-form-urlencoded",
            AppleWebReturnTests.form([("id_token", AppleWebReturnTests.token), ("state", "s"), ("error", "x")])
        ),
        ("POST", "", "application/x-www-form-urlencoded", "id_token=%zz&state=s"),
        (
            "POST", "", "application/x-www-form-urlencoded",
            AppleWebReturnTests.form([("id_token", AppleWebReturnTests.token), ("state", "s"), ("user", "{not json")])
        ),
        (
            "POST", "", "application/x-www-form-urlencoded",
            AppleWebReturnTests.apples + "&code2=" + String(repeating: "a", count: 40_000)
        ),
    ])
    func anythingElseGetsTheFourHundredPageAndNoRedirect(method: String, query: String, type: String, form: String) {
        let (response, redirected) = AppleWebReturn.answer(
            appleReturnEvent(form: form, method: method, query: query, contentType: type), target: Self.appLink)
        let object = (try? JSONParser.parse(response))?.objectValue
        #expect(!redirected && object?["statusCode"] == .int(400) && object?["headers"]?["location"] == nil)
        #expect(object?["headers"]?["content-type"] == .string("text/html; charset=utf-8"))
        // The page repeats nothing of the request.
        #expect(
            !(object?["body"]?.stringValue ?? "").contains("evil")
                && !(object?["body"]?.stringValue ?? "").contains("eyJ"))
    }

    /// Issue 32: a field Apple may add later is dropped, not a 400 page; it goes nowhere (the
    /// redirect carries Apple's known fields only, to the configured target).
    @Test func aFieldAppleMayAddLaterIsDroppedNotRefused() throws {
        let form = Self.apples + "&redirect_uri=https%3A%2F%2Fevil&new_field=%7B%22x%22%3A1%7D"
        let (response, redirected) = AppleWebReturn.answer(appleReturnEvent(form: form), target: Self.appLink)
        let location = (try? JSONParser.parse(response))?.objectValue?["headers"]?["location"]?.stringValue ?? ""
        #expect(redirected && location.hasPrefix("https://photos.example.com/apple-return#"))
        #expect(!location.contains("evil") && !location.contains("new_field") && location.contains("state=s-123"))
        #expect(
            AppleWebReturn.form(appleReturnEvent(form: form))?.map(\.0) == ["id_token", "code", "state", "user"])
    }

    @Test func unconfiguredTheReturnURLRefusesEverything() {
        let (status, headers) = answer(appleReturnEvent(form: Self.apples), target: nil)
        #expect(status == 400 && headers?["location"] == nil)
    }

    @Test func onlyTheReturnPathIsTheReturnURL() {
        #expect(!AppleWebReturn.isReturnURLRequest(appleReturnEvent(form: Self.apples, path: "/")))
        #expect(!AppleWebReturn.isReturnURLRequest(appleReturnEvent(form: Self.apples, path: "/apple/callback/x")))
        #expect(!AppleWebReturn.isReturnURLRequest(Array(#"{"idToken":"/apple/callback"}"#.utf8)))
    }

    @Test(arguments: [
        "https://photos.example.com/apple-return", "https://photos.example.com",
        "intent://cb#Intent;scheme=photos;package=com.example.photos;end",
    ])
    func targetsTheConfigurationAccepts(text: String) throws {
        _ = try AppleWebReturnTarget(text)
    }

    @Test(arguments: [
        "http://photos.example.com/r", "https://photos.example.com/r#frag", "https://photos.example.com/r?x=1",
        "https://user@photos.example.com/r", "photos://apple-return", "javascript:alert(1)",
        "intent://cb#Intent;scheme=photos;end", "intent://cb?x=1#Intent;package=p;end", "intent://cb", "https://a b/",
    ])
    func targetsItRefusesAtStartUp(text: String) {
        #expect(throws: ConfigurationError.self) { _ = try AppleWebReturnTarget(text) }
        var env = ServiceConfigurationTests.minimal
        env["APPLE_WEB_RETURN_TARGET"] = text
        #expect(throws: ConfigurationError.self) {
            _ = try ServiceConfiguration.from(environment: { env[$0] })
        }
    }
}
