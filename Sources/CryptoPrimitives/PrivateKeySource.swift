import PlatformSupport

/// Where a configured private key comes from: the PEM itself (`Variables.pem`, e.g.
/// `APPLE_PRIVATE_KEY`), or the name of an SSM SecureString parameter holding it
/// (`Variables.parameter`, e.g. `APPLE_PRIVATE_KEY_PARAMETER`), which the caller reads. One type
/// for every such key (Sign in with Apple's, the In-App Purchase key); `Variables` carries which
/// variables it was read from, so an error about the key names the right one. The PEM never
/// appears in a description, a debug description or a mirror; a parameter name is not a secret
/// and shows.
package enum PrivateKeySource<Variables: PrivateKeyVariables>: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    case pem(String)
    case parameter(name: String)

    /// The variable the key came from, for a configuration error about the key itself.
    package var variable: String {
        switch self {
        case .pem: return Variables.pem
        case .parameter: return Variables.parameter
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
