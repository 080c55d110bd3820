import StrictJSON

extension Invocation.Shape {
    /// The answer in this shape: the envelope itself for a direct invoke; for a Function URL,
    /// `{"statusCode", "headers", "body": "<envelope JSON>", "isBase64Encoded": false}`.
    package func wrap(_ envelope: JSONValue, statusCode: Int) -> [UInt8] {
        switch self {
        case .direct:
            return envelope.serialized()
        case .functionURL:
            let headers = JSONObject([
                ("content-type", .string("application/json")),
                // Answers carry credentials and refresh tokens: no cache may keep them.
                ("cache-control", .string("no-store")),
                ("x-content-type-options", .string("nosniff")),
            ])
            let response = JSONObject([
                ("statusCode", .int(Int64(statusCode))), ("headers", .object(headers)),
                ("body", .string(envelope.serializedString())), ("isBase64Encoded", .bool(false)),
            ])
            return JSONValue.object(response).serialized()
        }
    }
}
