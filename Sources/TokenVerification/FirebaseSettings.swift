import PlatformSupport

/// Firebase Auth as the opt-in third provider (issue 13, for apps moving from Firebase): off
/// unless `FIREBASE_PROJECT_ID` names a project. The project fixes both the issuer
/// (`https://securetoken.google.com/<project>`) and the one accepted audience (the project id).
package struct FirebaseSettings: Sendable, Equatable {
    static let defaultJWKSURL =
        "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    static let issuerPrefix = "https://securetoken.google.com/"

    /// nil: the provider is off.
    package var projectID: String?
    package var jwksURL: String
    /// `firebase.sign_in_provider` `anonymous` is refused unless this is set.
    package var allowAnonymous: Bool

    package init(projectID: String? = nil, jwksURL: String = defaultJWKSURL, allowAnonymous: Bool = false) {
        self.projectID = projectID
        self.jwksURL = jwksURL
        self.allowAnonymous = allowAnonymous
    }

    package static let off = FirebaseSettings()

    package var isEnabled: Bool { projectID != nil }

    /// The one issuer a token of this project carries; nil when the provider is off.
    var issuer: String? { projectID.map { Self.issuerPrefix + $0 } }

    /// The shape the key cache and the shared claim rules read: the project id is the audience.
    var providerSettings: ProviderSettings {
        ProviderSettings(audiences: projectID.map { [$0] } ?? [], jwksURL: jwksURL)
    }

    /// `FIREBASE_PROJECT_ID` (empty or unset = off; else a Google Cloud project id),
    /// `FIREBASE_JWKS_URL` (empty or unset = Google's securetoken endpoint; else the JWKS URL rule),
    /// `FIREBASE_ALLOW_ANONYMOUS` (`true`/`false`, empty or unset = `false`). A refusal names the
    /// variable, never its value.
    static func from(environment get: (String) -> String?) throws(ConfigurationError) -> FirebaseSettings {
        var settings = FirebaseSettings()
        if let project = get("FIREBASE_PROJECT_ID"), !project.isEmpty {
            guard isProjectID(project) else {
                throw ConfigurationError(
                    variable: "FIREBASE_PROJECT_ID",
                    message: "must be a project id: 6-30 lowercase letters, digits and hyphens, starting with a "
                        + "letter, not ending with a hyphen")
            }
            settings.projectID = project
        }
        settings.jwksURL = try VerifierConfiguration.jwksURL(get, "FIREBASE_JWKS_URL", default: defaultJWKSURL)
        switch get("FIREBASE_ALLOW_ANONYMOUS") {
        case nil, ""?, "false"?: settings.allowAnonymous = false
        case "true"?: settings.allowAnonymous = true
        default: throw ConfigurationError(variable: "FIREBASE_ALLOW_ANONYMOUS", message: "must be true or false")
        }
        return settings
    }

    /// Google's rule for a project id (Resource Manager, `Project.projectId`): 6 to 30 lowercase
    /// ASCII letters, digits or hyphens, starting with a letter, no trailing hyphen. The id is
    /// spliced into the issuer URL, so nothing outside that set may reach it.
    static func isProjectID(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last else { return false }
        guard ASCII.isLower(first), last != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { ASCII.isLower($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "-") }
    }
}
