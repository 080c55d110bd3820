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
    /// The header lines as received: read in place by `header(_:)`, made Strings only when asked.
    /// Making two Strings of every line of every answer cost ~60k instructions and ~50
    /// allocations per warm sign-in, to read three.
    private(set) var headerBlock: HeaderBlock
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headerBlock = HeaderBlock(headers)
        self.body = body
    }

    init(status: Int, headerBlock: HeaderBlock, body: [UInt8]) {
        self.status = status
        self.headerBlock = headerBlock
        self.body = body
    }

    /// In arrival order; names as the server sent them.
    package var headers: [(name: String, value: String)] {
        get {
            var out: [(name: String, value: String)] = []
            headerBlock.visit { name, value in
                out.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            }
            return out
        }
        set { headerBlock = HeaderBlock(newValue) }
    }

    /// First header with this name, compared case-insensitively.
    package func header(_ name: String) -> String? {
        var wanted = name
        return wanted.withUTF8 { wanted in
            headerBlock.first(
                nameCount: wanted.count,
                where: { $0.elementsEqual(wanted, by: { ASCII.lowercased($0) == ASCII.lowercased($1) }) },
                { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// The headers whose name starts with `prefix` (compared case-insensitively, as S3's
    /// `x-amz-meta-`): the rest of each name, and the value.
    package func headers(namePrefix prefix: String) -> [(suffix: String, value: String)] {
        var wanted = prefix
        return wanted.withUTF8 { wanted in
            var out: [(suffix: String, value: String)] = []
            headerBlock.visit { name, value in
                guard name.count >= wanted.count,
                    name.prefix(wanted.count).elementsEqual(
                        wanted, by: { ASCII.lowercased($0) == ASCII.lowercased($1) })
                else { return }
                out.append(
                    (
                        String(decoding: name.dropFirst(wanted.count), as: UTF8.self),
                        String(decoding: value, as: UTF8.self)
                    ))
            }
            return out
        }
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
