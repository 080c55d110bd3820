import CurlHTTP
import PlatformSupport
import StrictJSON

/// Google's RISC management API (Cross-Account Protection): `stream:update` registers the
/// receiver and the event types, `stream:verify` asks Google to send a `verification` event
/// carrying `state` to it (docs/operations.md, "Google's security events"). Each call carries a
/// bearer token the service account signed itself (`ServiceAccountKey.bearerToken`).
struct RiscManagementClient {
    static let defaultEndpoint = "https://risc.googleapis.com"
    /// The bearer token's `aud`.
    static let audience = "https://risc.googleapis.com/google.identity.risc.v1beta.RiscManagementService"
    static let pushDelivery = "https://schemas.openid.net/secevent/risc/delivery-method/push"
    /// Every event type the receiver acts on or logs (the OAuth ones are in Google's oauth namespace).
    static let eventTypes = [
        "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked",
        "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked",
        "https://schemas.openid.net/secevent/oauth/event-type/token-revoked",
        "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
        "https://schemas.openid.net/secevent/risc/event-type/account-enabled",
        "https://schemas.openid.net/secevent/risc/event-type/account-credential-change-required",
        "https://schemas.openid.net/secevent/risc/event-type/verification",
    ]

    /// A call Google did not accept, or that got no answer: what to tell the operator (Google's
    /// own message, never the token).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let http: HTTPClient
    let endpoint: String
    let key: ServiceAccountKey

    /// The stream as `stream:update` answered it (`events_delivered`: what Google will send).
    func update(receiver: String) throws(Failure) -> JSONObject {
        let body = JSONObject([
            (
                "delivery",
                .object(JSONObject([("delivery_method", .string(Self.pushDelivery)), ("url", .string(receiver))]))
            ),
            ("events_requested", .array(Self.eventTypes.map(JSONValue.string))),
        ])
        return try post("/v1beta/stream:update", body)
    }

    /// Asks Google to send a verification event carrying `state` to the registered receiver.
    func verify(state: String) throws(Failure) {
        _ = try post("/v1beta/stream:verify", JSONObject([("state", .string(state))]))
    }

    private func post(_ path: String, _ body: JSONObject) throws(Failure) -> JSONObject {
        let request = HTTPRequest(
            method: "POST", url: endpoint + path,
            headers: [
                ("Authorization", "Bearer " + key.bearerToken(nowSeconds: Clock.nowSeconds())),
                ("Content-Type", "application/json"), ("Accept", "application/json"),
            ],
            body: JSONValue.object(body).serialized(), timeoutMilliseconds: 30_000, maxResponseBytes: 1 << 20)
        let response: HTTPResponse
        switch http.send(request) {
        case .failure(let error): throw Failure(description: "\(path) got no answer (\(error.kind))")
        case .success(let r): response = r
        }
        let answer = (try? JSONParser.parse(response.body))?.objectValue ?? JSONObject()
        guard response.status == 200 else {
            let message = answer["error"]?["message"]?.stringValue.flatMap(Self.printable) ?? "no message"
            throw Failure(description: "\(path) answered HTTP \(response.status): \(message)")
        }
        return answer
    }

    /// Google's message as it may be shown: visible ASCII and spaces, at most 300 bytes.
    static func printable(_ text: String) -> String? {
        let bytes = text.utf8.prefix(300)
        return bytes.allSatisfy({ ASCII.isVisible($0) || $0 == 0x20 }) ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
