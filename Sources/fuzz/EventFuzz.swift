import AuthService
import StrictJSON

/// AuthService's event reading, for each function: an event either chooses an action (its fields
/// read and checked) or is answered with a refusal, never a trap; every refusal is the contract's
/// envelope, and in a Function URL's shape its body is that envelope as JSON text.
enum EventFuzz {
    static func run(_ bytes: [UInt8]) {
        for function in [AuthFunction.signin, .refresh, .link] {
            let (action, answer) = function.read(bytes, requestID: "fuzz")
            require((action == nil) != (answer == nil), "events: an action or an answer, not both")
            guard let answer else { continue }
            guard let object = (try? JSONParser.parse(answer))?.objectValue else {
                require(false, "events: the answer is a JSON object")
                return
            }
            var envelope = object
            if let body = object["body"] {
                require(object["statusCode"]?.int64Value.map { (400..<600).contains($0) } == true, "events: status")
                guard let text = body.stringValue, let inner = (try? JSONParser.parse(Array(text.utf8)))?.objectValue
                else {
                    require(false, "events: a Function URL answer's body is the envelope")
                    return
                }
                envelope = inner
            }
            require(envelope["success"] == .bool(false), "events: a refusal says success false")
            require(envelope["error"]?["code"]?.stringValue?.isEmpty == false, "events: a refusal has a code")
        }
    }
}
