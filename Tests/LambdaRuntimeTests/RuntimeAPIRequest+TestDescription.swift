@testable import LambdaRuntime

/// Readable failures: "POST /invocation/r1/response {"a":1}" rather than an array of bytes.
/// Large bodies show their size only.
extension RuntimeAPIRequest: CustomStringConvertible {
    public var description: String {
        let body = self.body
        let shown = body.count > 200 ? "(\(body.count) bytes)" : String(decoding: body, as: UTF8.self)
        return "\(method) \(path) \(shown)"
    }
}
