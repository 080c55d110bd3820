import PlatformSupport
import StrictJSON

/// The response envelope every answer uses (docs/API.md, "The envelope").
package enum Envelope {
    package static func success(
        _ data: JSONValue, requestID: String, nowMilliseconds: Int64 = Clock.nowMilliseconds()
    ) -> JSONValue {
        .object(JSONObject([("success", .bool(true)), ("data", data), ("meta", meta(requestID, nowMilliseconds))]))
    }

    package static func failure(
        _ error: ServiceError, requestID: String, nowMilliseconds: Int64 = Clock.nowMilliseconds()
    ) -> JSONValue {
        let err: JSONValue = .object(
            JSONObject([("code", .string(error.code.rawValue)), ("message", .string(error.message))]))
        return .object(
            JSONObject([("success", .bool(false)), ("error", err), ("meta", meta(requestID, nowMilliseconds))]))
    }

    private static func meta(_ requestID: String, _ now: Int64) -> JSONValue {
        .object(
            JSONObject([
                ("requestId", .string(requestID)),
                ("timestamp", .string(ISO8601.format(milliseconds: now, fractional: true))),
            ]))
    }
}
