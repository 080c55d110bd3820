import PlatformSupport

/// What `S3Client` refuses before anything is sent: a malformed bucket name, header values that
/// are not printable ASCII, metadata names and tags outside their alphabets.
extension S3Client {
    /// S3 bucket naming: 3–63 of `a-z 0-9 . -`, starting and ending with a letter or digit, no
    /// two periods in a row. Nil when the name is valid.
    package static func bucketProblem(_ bucket: String) -> String? {
        let b = Array(bucket.utf8)
        let dot = UInt8(ascii: "."), dash = UInt8(ascii: "-")
        guard (3...63).contains(b.count),
            b.allSatisfy({ ASCII.isLower($0) || ASCII.isDigit($0) || $0 == dash || $0 == dot }),
            let first = b.first, let last = b.last, first != dash, first != dot, last != dash, last != dot,
            !zip(b, b.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else { return "bucket name is not a valid S3 bucket name" }
        return nil
    }

    /// Printable ASCII, what a header value may hold here.
    static func isHeaderValue(_ s: String) -> Bool { s.utf8.allSatisfy(ASCII.isPrintable) }

    /// The PutObject request for `put` at `path`, or why it may not be sent.
    static func putRequest(_ put: S3Put, path: String) -> Result<OperationRequest, AWSError> {
        guard isHeaderValue(put.contentType), !put.contentType.isEmpty else {
            return .failure(.invalid("content type is not a printable header value"))
        }
        var headers: [(name: String, value: String)] = [("Content-Type", put.contentType)]
        var accept: Set<Int> = []
        switch put.condition {
        case .none: break
        case .ifNoneMatch:
            headers.append(("If-None-Match", "*"))
            accept = [412]
        case .ifMatch(let etag):
            guard !etag.isEmpty, isHeaderValue(etag) else {
                return .failure(.invalid("ETag is not a printable header value"))
            }
            headers.append(("If-Match", etag))
            accept = [412, 404]
        }
        for (name, value) in put.metadata {
            guard !name.isEmpty,
                name.utf8.allSatisfy({ ASCII.isLower($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "-") })
            else {
                return .failure(.invalid("metadata name must be [a-z0-9-]"))
            }
            guard isHeaderValue(value) else { return .failure(.invalid("metadata value is not printable ASCII")) }
            headers.append(("x-amz-meta-" + name, value))
        }
        if !put.tags.isEmpty {
            let safe: (String) -> Bool = {
                !$0.isEmpty
                    && $0.utf8.allSatisfy {
                        ASCII.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                            || $0 == UInt8(ascii: "_")
                    }
            }
            guard put.tags.allSatisfy({ safe($0.0) && safe($0.1) }) else {
                return .failure(.invalid("tag keys and values must be [A-Za-z0-9._-]"))
            }
            headers.append(("x-amz-tagging", put.tags.map { $0.0 + "=" + $0.1 }.joined(separator: "&")))
        }
        return .success(OperationRequest(method: "PUT", path: path, headers: headers, body: put.body, accept: accept))
    }
}
