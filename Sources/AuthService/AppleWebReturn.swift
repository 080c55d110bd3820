import PlatformSupport
import StrictJSON

/// Sign in with Apple's return URL on auth-signin's Function URL, `POST /apple/callback` (contract
/// v4, "Sign in with Apple on Android and the web"): Apple's `form_post` comes in; a 303 redirect to
/// the one configured app target (`APPLE_WEB_RETURN_TARGET`) goes out, carrying the form's fields.
/// Nothing is stored and nothing of the form is logged; the ID token is verified later, when the
/// app signs in with it. A field Apple does not send today is dropped, not refused: Apple may add
/// fields to its form_post, and a 400 page then would break every sign-in on Android at once
/// (issue 32); only Apple's known fields go out, so a dropped field reaches nobody. Anything else
/// posted there (another method, a query, another content type, a repeated field of Apple's, no
/// `state`, neither `id_token` nor Apple's `error`, a known field over its size or not of its
/// form, a body over `maxBodyBytes`) gets a 400 page and no redirect; so does every request while
/// the target is not configured.
package enum AppleWebReturn {
    package static let path = "/apple/callback"
    /// The form as sent (percent-encoded): an ID token of at most 16 KiB plus the code, state and a
    /// `user` whose JSON percent-encoding can triple.
    package static let maxBodyBytes = 32 * 1024

    /// Apple's fields, their size limits (decoded bytes) and what their bytes may be.
    package static let fields: [(name: String, maxBytes: Int, check: @Sendable ([UInt8]) -> Bool)] = [
        ("id_token", Request.maxIDTokenBytes, isCompactJWS),
        ("code", 1024, { $0.allSatisfy { ASCII.isAlphanumeric($0) || Array("._-".utf8).contains($0) } }),
        ("state", 512, { $0.allSatisfy(ASCII.isVisible) }),
        ("user", 4096, { (try? JSONParser.parse($0))?.objectValue != nil }),
        ("error", 64, { $0.allSatisfy { ASCII.isLower($0) || $0 == UInt8(ascii: "_") } }),
    ]

    /// Whether `event` is a Function URL request for the return URL: a cheap byte check first, so
    /// that an ordinary sign-in event is not parsed twice.
    package static func isReturnURLRequest(_ event: [UInt8]) -> Bool {
        guard Invocation.contains(event, Array("\"\(path)\"".utf8)) else { return false }
        guard event.count <= Invocation.maxRawEventBytes, let value = try? JSONParser.parse(event),
            let http = Invocation.functionURLRequest(value)
        else { return false }
        return http["rawPath"]?.stringValue == path
    }

    /// The Function URL answer for `event` (a request to `path`), and whether it redirected.
    package static func answer(_ event: [UInt8], target: AppleWebReturnTarget?) -> (response: [UInt8], redirected: Bool)
    {
        guard let target else { return (refusal("Sign in with Apple is not set up for this app."), false) }
        guard let fields = form(event) else {
            return (refusal("This address only takes Sign in with Apple's answer."), false)
        }
        let response = JSONObject([
            ("statusCode", .int(303)),
            (
                "headers",
                .object(
                    JSONObject([
                        ("location", .string(target.location(carrying: fields))),
                        // The answer carries an ID token: no cache keeps it, no referrer repeats it.
                        ("cache-control", .string("no-store")), ("referrer-policy", .string("no-referrer")),
                    ]))
            ),
            ("body", .string("")), ("isBase64Encoded", .bool(false)),
        ])
        return (JSONValue.object(response).serialized(), true)
    }

    /// Apple's fields in Apple's order, or nil when the request is not Apple's `form_post`.
    package static func form(_ event: [UInt8]) -> [(String, String)]? {
        guard event.count <= Invocation.maxRawEventBytes, let value = try? JSONParser.parse(event),
            let http = Invocation.functionURLRequest(value),
            http["requestContext"]?["http"]?["method"]?.stringValue == "POST",
            (http["rawQueryString"]?.stringValue ?? "").isEmpty,
            let contentType = http["headers"]?["content-type"]?.stringValue,
            mediaType(contentType) == "application/x-www-form-urlencoded",
            case .success(let body) = Invocation.functionURLBody(http, maxBytes: maxBodyBytes),
            let pairs = decodeForm(body)
        else { return nil }
        var found: [String: [UInt8]] = [:]
        for (name, value) in pairs {
            guard let rule = fields.first(where: { $0.name == name }) else { continue }
            guard found[name] == nil, !value.isEmpty, value.count <= rule.maxBytes, rule.check(value) else {
                return nil
            }
            found[name] = value
        }
        guard found["state"] != nil, (found["id_token"] != nil) != (found["error"] != nil) else { return nil }
        return fields.compactMap { rule in
            found[rule.name].map { (rule.name, String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// The media type of a `Content-Type`, lowercased, without parameters.
    package static func mediaType(_ value: String) -> String {
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(decoding: ASCII.trimmingSpaces(Array(type.utf8)).map(ASCII.lowercased), as: UTF8.self)
    }

    /// `application/x-www-form-urlencoded` pairs (`+` is a space, `%XX` a byte), each value valid
    /// UTF-8; nil for a malformed escape or invalid UTF-8.
    package static func decodeForm(_ body: [UInt8]) -> [(String, [UInt8])]? {
        var pairs: [(String, [UInt8])] = []
        for part in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let kv = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(kv[0]), let value = unescape(kv.count > 1 ? kv[1] : []),
                let nameText = String(validating: name, as: UTF8.self), String(validating: value, as: UTF8.self) != nil
            else { return nil }
            pairs.append((nameText, value))
        }
        return pairs
    }

    package static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, let high = ASCII.hexDigitValue(bytes[i + 1]),
                    let low = ASCII.hexDigitValue(bytes[i + 2])
                else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        return out
    }

    /// Three non-empty base64url segments: the shape of an ID token (verified when the app signs in).
    package static func isCompactJWS(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return segments.count == 3
            && segments.allSatisfy { s in
                !s.isEmpty
                    && s.allSatisfy { ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
            }
    }

    /// The 400 page: fixed text, nothing of the request in it.
    package static func refusal(_ sentence: String) -> [UInt8] {
        let page =
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Sign in with Apple</title>"
            + "<p>\(sentence) Return to the app and try signing in again.</p></html>"
        let response = JSONObject([
            ("statusCode", .int(400)),
            (
                "headers",
                .object(
                    JSONObject([
                        ("content-type", .string("text/html; charset=utf-8")), ("cache-control", .string("no-store")),
                        ("x-content-type-options", .string("nosniff")),
                        ("content-security-policy", .string("default-src 'none'")),
                    ]))
            ),
            ("body", .string(page)), ("isBase64Encoded", .bool(false)),
        ])
        return JSONValue.object(response).serialized()
    }
}
