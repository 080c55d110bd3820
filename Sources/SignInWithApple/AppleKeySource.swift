/// Where the Sign in with Apple key (the `.p8` that signs `client_secret`) comes from: the PEM
/// itself (`APPLE_PRIVATE_KEY`), or the name of an SSM SecureString parameter holding it
/// (`APPLE_PRIVATE_KEY_PARAMETER`), which the caller reads once at init. The PEM never appears in
/// a description, a debug description or a mirror; a parameter name is not a secret and shows.
package enum AppleKeySource: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    case pem(String)
    case parameter(name: String)

    /// The variable the key came from, for a configuration error about the key itself.
    package var variable: String {
        switch self {
        case .pem: return "APPLE_PRIVATE_KEY"
        case .parameter: return "APPLE_PRIVATE_KEY_PARAMETER"
        }
    }

    package var description: String {
        switch self {
        case .pem: return "pem(redacted)"
        case .parameter(let name): return "parameter(\(name))"
        }
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror {
        switch self {
        case .pem: return Mirror(self, children: ["pem": "redacted"], displayStyle: .enum)
        case .parameter(let name): return Mirror(self, children: ["parameter": name], displayStyle: .enum)
        }
    }
}
