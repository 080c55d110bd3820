import AWSClients
import ArgumentParser
import CryptoPrimitives
import PlatformSupport
import SignInWithApple

#if canImport(Glibc)
import Glibc
#endif

/// A team's Sign in with Apple key for the app-transfer commands (contract v4): the sending
/// team's for `prepare`, the recipient team's for `complete`. Each option falls back to the
/// variable the functions read (APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY or
/// APPLE_PRIVATE_KEY_PARAMETER, APPLE_CLIENT_ID or the first of APPLE_AUDIENCES, APPLE_AUTH_URL),
/// so an operator can run them with the deployment's own settings; `--key-file` reads the .p8.
struct AppleKeyOptions: ParsableArguments {
    @Option(help: "The team's id (default: APPLE_TEAM_ID).") var teamId: String?
    @Option(help: "The Sign in with Apple key's id (default: APPLE_KEY_ID).") var keyId: String?
    @Option(help: "The key's .p8 file (PKCS#8 PEM). Default: APPLE_PRIVATE_KEY, or --key-parameter.")
    var keyFile: String?
    @Option(
        help:
            "An SSM SecureString parameter holding the key (default: APPLE_PRIVATE_KEY_PARAMETER); needs ssm:GetParameter on it."
    )
    var keyParameter: String?
    @Option(
        help:
            "The client id at Apple: the app's bundle id (default: APPLE_CLIENT_ID, else the first of APPLE_AUDIENCES)."
    )
    var clientId: String?
    @Option(help: "Apple's base URL (default: APPLE_AUTH_URL, else https://appleid.apple.com).") var authUrl: String?
    @Option(help: "Requests to Apple a second at most (halved on each 429, then back).") var rate: Double = 20
    @Option(help: "Users asked about together (1-64).") var batch: Int = 16

    func validate() throws {
        guard rate > 0 && rate <= 1_000 else { throw ValidationError("--rate must be above 0 and at most 1000") }
        guard (1...64).contains(batch) else { throw ValidationError("--batch must be 1 to 64") }
        if keyFile != nil && keyParameter != nil {
            throw ValidationError("give --key-file or --key-parameter, not both")
        }
    }

    /// The client, its settings read as the functions read theirs (errors name the variable or
    /// option, never a value); the key from the file, the environment or SSM.
    func client(_ context: OperatorContext) throws -> AppleMigrationClient {
        var overrides: [String: String] = [:]
        if let teamId { overrides["APPLE_TEAM_ID"] = teamId }
        if let keyId { overrides["APPLE_KEY_ID"] = keyId }
        if let clientId { overrides["APPLE_CLIENT_ID"] = clientId }
        if let authUrl { overrides["APPLE_AUTH_URL"] = authUrl }
        if let keyFile {
            overrides["APPLE_PRIVATE_KEY"] = try Self.read(keyFile)
            overrides["APPLE_PRIVATE_KEY_PARAMETER"] = ""
        }
        if let keyParameter {
            overrides["APPLE_PRIVATE_KEY_PARAMETER"] = keyParameter
            overrides["APPLE_PRIVATE_KEY"] = ""
        }
        let settings: AppleRevocationSettings
        do throws(ConfigurationError) {
            guard
                let read = try AppleRevocationSettings.from(environment: { overrides[$0] ?? Environment.get($0) })
            else {
                throw ConfigurationError(
                    variable: "--team-id", message: "and --key-id are needed (or APPLE_TEAM_ID, APPLE_KEY_ID)")
            }
            settings = read
        } catch { throw ValidationError("\(error)") }
        let pem: String
        switch settings.keySource {
        case .pem(let text): pem = text
        case .parameter(let name):
            do throws(AWSError) {
                pem = try SSMClient(http: context.http, config: context.config).parameter(
                    named: name, deadline: .after(milliseconds: 15_000))
            } catch {
                throw ValidationError(
                    "the key parameter could not be read (\(error.code ?? String(describing: error.kind)))")
            }
        }
        let key: P256PrivateKey
        do throws(P256PrivateKey.KeyError) { key = try P256PrivateKey(pem: pem) } catch {
            throw ValidationError("the Sign in with Apple key is not a usable P-256 key: \(error)")
        }
        return AppleMigrationClient(settings: settings, key: key, http: context.http, requestsPerSecond: rate)
    }

    /// A .p8 file's text (small; never echoed).
    static func read(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ValidationError("--key-file \(path) cannot be read") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 65_536 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { throw ValidationError("--key-file \(path) cannot be read") }
            if n == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[0..<n]
        }
        throw ValidationError("--key-file \(path) is too large for a .p8 key")
    }
}
