import Foundation

/// Decodes answers with the contract's ISO-8601 dates (with or without fractional seconds) and
/// turns every decoding failure into `SignInError.malformedAnswer` naming the action and the
/// field path (`data.credentials.expiration`), never the bare "invalid server response".
enum WireCoding {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not an ISO-8601 UTC timestamp")
            }
            return date
        }
        return decoder
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The envelope's payload and the server's time (`meta.timestamp`), or the error the envelope
    /// (or its absence) means.
    static func payload<Payload: Decodable & Sendable>(
        _ type: Payload.Type, from answer: TransportAnswer, action: String
    ) throws(SignInError) -> Decoded<Payload> {
        let envelope: Envelope<Payload>
        do {
            envelope = try decoder().decode(Envelope<Payload>.self, from: answer.body)
        } catch let error as DecodingError {
            // A gateway's, or Lambda's own, 429 or 5xx page is not an envelope: Lambda throttled the
            // call or the front door failed. That is "unavailable, retry later", not malformed.
            if let status = answer.statusCode, status == 429 || status >= 500 { throw .unavailable(status: status) }
            throw malformed(error, action: action)
        } catch {
            throw .malformedAnswer(action: action, path: "", detail: "not JSON")
        }
        let serverTime = envelope.meta?.timestamp.flatMap(parseDate)
        if envelope.success {
            guard let data = envelope.data else {
                throw .malformedAnswer(action: action, path: "data", detail: "missing")
            }
            return Decoded(payload: data, serverTime: serverTime)
        }
        guard let failure = envelope.error else {
            throw .malformedAnswer(action: action, path: "error", detail: "missing")
        }
        throw .server(ErrorCode(rawValue: failure.code), message: failure.message, status: answer.statusCode)
    }

    static func malformed(_ error: DecodingError, action: String) -> SignInError {
        func path(_ keys: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (keys + (last.map { [$0] } ?? [])).map { key in
                key.intValue.map { "[\($0)]" } ?? key.stringValue
            }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .malformedAnswer(action: action, path: path(context.codingPath, key), detail: "missing")
        case .valueNotFound(_, let context):
            return .malformedAnswer(action: action, path: path(context.codingPath), detail: "null")
        case .typeMismatch(let type, let context):
            return .malformedAnswer(action: action, path: path(context.codingPath), detail: "not \(type)")
        case .dataCorrupted(let context):
            let detail = context.codingPath.isEmpty ? "not JSON" : context.debugDescription
            return .malformedAnswer(action: action, path: path(context.codingPath), detail: detail)
        @unknown default:
            return .malformedAnswer(action: action, path: "", detail: "undecodable")
        }
    }
}
