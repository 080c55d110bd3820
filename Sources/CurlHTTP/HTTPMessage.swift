import PlatformSupport

/// A request as the layers above build it. Header names are sent as given.
package struct HTTPRequest: Sendable {
    var method: String
    var url: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Whole-transfer limit in milliseconds; 0 means none (the Runtime API's long poll).
    var timeoutMilliseconds: Int
    /// A larger response body is cut off while it arrives and fails with `.responseTooLarge`;
    /// nil keeps the handle's own limit.
    var maxResponseBytes: Int?

    package init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        timeoutMilliseconds: Int = 10_000, maxResponseBytes: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxResponseBytes = maxResponseBytes
    }
}

package struct HTTPResponse: Sendable {
    package var status: Int
    /// In arrival order; names as the server sent them.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// First header with this name, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first(where: { $0.name.equalsIgnoringASCIICase(name) })?.value
    }

    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A transfer that produced no HTTP answer.
package struct HTTPError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case timeout
        /// Could not connect, connection reset, DNS failure: worth a retry.
        case connection
        /// Response larger than the handle's limit.
        case responseTooLarge
        /// Bad URL, unsupported protocol, libcurl missing: retrying will not help.
        case other
    }
    package let kind: Kind
    /// libcurl's text for the error (never includes request headers or bodies).
    package let message: String

    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    package var isRetryable: Bool { kind == .timeout || kind == .connection }
    package var description: String { "HTTP transfer failed (\(kind)): \(message)" }
}
