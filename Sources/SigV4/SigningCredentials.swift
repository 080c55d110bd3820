/// The key pair (and, for a role session, the token) a request is signed with. `description`
/// never shows the secret or the token.
package struct SigningCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    package var description: String {
        "SigningCredentials(\(accessKeyID), secret redacted\(sessionToken == nil ? "" : ", session token redacted"))"
    }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID]) }
}
