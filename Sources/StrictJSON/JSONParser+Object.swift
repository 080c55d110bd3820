extension JSONParser {
    /// Parses `bytes` as one JSON object, for a caller that reports refusals in its own error type:
    /// `refusal` gets "<what> has a duplicate <member>", "<what> is not valid JSON (<reason>)" or
    /// "<what> is not a JSON object" (names and reasons only, never content).
    package static func object<Failure: Error>(
        _ bytes: [UInt8], _ what: String, member: String = "member", _ refusal: (String) -> Failure
    ) throws(Failure) -> JSONObject {
        let parsed: JSONValue
        do throws(JSONError) { parsed = try parse(bytes) } catch {
            throw refusal(
                error.reason == .duplicateKey
                    ? "\(what) has a duplicate \(member)" : "\(what) is not valid JSON (\(error.reason.rawValue))")
        }
        guard let object = parsed.objectValue else { throw refusal("\(what) is not a JSON object") }
        return object
    }
}
