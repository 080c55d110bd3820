import PlatformSupport

#if canImport(Glibc)
import Glibc
#endif

/// `~/.aws/credentials` and `~/.aws/config` as the AWS CLI and SDKs read them (INI: `[name]` in
/// the credentials file, `[profile name]` or `[default]` in the config file; `key = value`;
/// `#`/`;` comments). Supported in a profile: static keys, a session token, `region`,
/// `endpoint_url`. Not supported (refused with a message naming the setting, never guessed):
/// IAM Identity Center (`sso_*`), `credential_process`, `role_arn` chains (`source_profile`,
/// `credential_source`), `web_identity_token_file`. Export such credentials first
/// (`aws configure export-credentials --profile NAME --format env`).
struct SharedConfigFiles {
    /// profile name → settings, the config file's and the credentials file's merged (the
    /// credentials file wins, as in the CLI).
    var profiles: [String: [String: String]] = [:]

    static let unsupported = [
        "sso_session", "sso_start_url", "sso_account_id", "sso_role_name", "credential_process", "role_arn",
        "source_profile", "credential_source", "web_identity_token_file",
    ]

    static func load(environment env: (String) -> String?) -> SharedConfigFiles {
        let home = env("HOME") ?? ""
        var files = SharedConfigFiles()
        if let config = readFile(env("AWS_CONFIG_FILE") ?? home + "/.aws/config") {
            for (section, values) in parse(config) {
                let name: String
                if section == "default" {
                    name = "default"
                } else if section.hasPrefix("profile ") {
                    name = String(section.dropFirst(8)).trimmingASCIISpaces()
                } else {
                    continue  // sso-session, services: not profiles
                }
                files.profiles[name, default: [:]].merge(values) { _, new in new }
            }
        }
        if let credentials = readFile(env("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials") {
            for (section, values) in parse(credentials) {
                files.profiles[section, default: [:]].merge(values) { _, new in new }
            }
        }
        return files
    }

    /// The profile's settings as the environment variables they stand for, or why it cannot be used.
    func variables(profile name: String, required: Bool) throws(ConfigurationError) -> [String: String] {
        guard let values = profiles[name] else {
            if required {
                throw ConfigurationError(
                    variable: "profile \(name)", message: "is not in ~/.aws/config or ~/.aws/credentials")
            }
            return [:]
        }
        if let setting = SharedConfigFiles.unsupported.first(where: { values[$0] != nil }) {
            throw ConfigurationError(
                variable: "profile \(name)",
                message:
                    "uses \(setting), which authctl does not support; export its credentials first (aws configure export-credentials --profile \(name) --format env)"
            )
        }
        var out: [String: String] = [:]
        let names = [
            ("aws_access_key_id", "AWS_ACCESS_KEY_ID"), ("aws_secret_access_key", "AWS_SECRET_ACCESS_KEY"),
            ("aws_session_token", "AWS_SESSION_TOKEN"), ("region", "AWS_REGION"), ("endpoint_url", "AWS_ENDPOINT_URL"),
        ]
        for (key, variable) in names { if let v = values[key], !v.isEmpty { out[variable] = v } }
        return out
    }

    static func parse(_ text: String) -> [(String, [String: String])] {
        var sections: [(String, [String: String])] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = String(raw).trimmingASCIISpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()).trimmingASCIISpaces(), [:]))
            } else if let eq = line.firstIndex(of: "="), !sections.isEmpty {
                let key = String(line[..<eq]).trimmingASCIISpaces().lowercasedASCII()
                let value = String(line[line.index(after: eq)...]).trimmingASCIISpaces()
                sections[sections.count - 1].1[key] = value
            }
        }
        return sections
    }

    /// The whole file, or nil when it cannot be opened (absent is normal).
    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 4_194_304 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
