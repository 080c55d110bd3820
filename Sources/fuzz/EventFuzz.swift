import AuthService
import LinkFunction
import RefreshFunction
import SignInFunction
import StrictJSON

/// AuthService's event reading, for each function: an event either chooses an action (its fields
/// read and checked) or is answered with a refusal, never a trap; every refusal is the contract's
/// envelope, and in a Function URL's shape its body is that envelope as JSON text.
enum EventFuzz {
    static func run(_ bytes: [UInt8]) {
        checkAppleWebReturn(bytes)
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

    /// The Apple return URL either redirects to the configured target only, the fields encoded in
    /// its fragment (nothing of the request anywhere else), or answers the 400 page.
    static func checkAppleWebReturn(_ bytes: [UInt8]) {
        let target = "https://app.example.com/apple-return"
        guard let (status, location) = AuthFunction.signin.appleWebReturn(bytes, target: target) else { return }
        require(status == 303 || status == 400, "apple return: a redirect or the 400 page")
        guard status == 303 else {
            require(location == nil, "apple return: no redirect with the 400 page")
            return
        }
        guard let location, location.hasPrefix(target + "#") else {
            require(false, "apple return: the redirect goes to the configured target")
            return
        }
        let fragment = location.utf8.dropFirst(target.utf8.count + 1)
        require(
            fragment.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || Array("-_.~%&=".utf8).contains(b)
            }, "apple return: the fields are percent-encoded into the fragment")
    }
}
