import PlatformSupport

#if canImport(Glibc)
import Glibc
#endif

/// `~/.aws/config` and `~/.aws/credentials` as the AWS CLI reads them (botocore's configloader):
/// INI sections (`[default]` or `[profile NAME]` and `[services NAME]` in the config file,
/// `[NAME]` in the credentials file), `key = value`, `#`/`;` comments, and a key with an empty
/// value followed by indented `key = value` lines (a nested block, kept as `parent.key`). The two
/// files are kept apart: the credential chain reads them at different places
/// (`CLIConfigChain`).
struct SharedConfigFiles {
    /// Profile name → its settings in the config file.
    var config: [String: [String: String]] = [:]
    /// Profile name → its settings in the credentials file.
    var credentials: [String: [String: String]] = [:]
    /// `[services NAME]` → its nested settings (`s3.endpoint_url`, ...).
    var services: [String: [String: String]] = [:]

    static func load(environment env: (String) -> String?) -> SharedConfigFiles {
        let home = env("HOME") ?? ""
        var files = SharedConfigFiles()
        if let text = readFile(env("AWS_CONFIG_FILE") ?? home + "/.aws/config") {
            for (section, values) in parse(text) {
                if section == "default" || section == "profile default" {
                    files.config["default", default: [:]].merge(values) { _, new in new }
                } else if section.hasPrefix("profile ") {
                    files.config[String(section.dropFirst(8)).trimmingASCIISpaces(), default: [:]].merge(values) {
                        _, new in new
                    }
                } else if section.hasPrefix("services ") {
                    files.services[String(section.dropFirst(9)).trimmingASCIISpaces(), default: [:]].merge(values) {
                        _, new in new
                    }
                }  // sso-session and others: nothing authctl reads
            }
        }
        if let text = readFile(env("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials") {
            for (section, values) in parse(text) {
                files.credentials[section, default: [:]].merge(values) { _, new in new }
            }
        }
        return files
    }

    func hasProfile(_ name: String) -> Bool { config[name] != nil || credentials[name] != nil }

    /// The profile as the CLI scopes it: the config file's settings, the credentials file's on
    /// top (botocore's `full_config`).
    func scoped(_ name: String) -> [String: String] {
        (config[name] ?? [:]).merging(credentials[name] ?? [:]) { _, new in new }
    }

    static func parse(_ text: String) -> [(String, [String: String])] {
        var sections: [(String, [String: String])] = []
        var parent: String?
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let indented = raw.first == " " || raw.first == "\t"
            let line = String(raw).trimmingASCIISpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if !indented, line.hasPrefix("["), line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()).trimmingASCIISpaces(), [:]))
                parent = nil
            } else if let eq = line.firstIndex(of: "="), !sections.isEmpty {
                let key = String(line[..<eq]).trimmingASCIISpaces().lowercasedASCII()
                let value = String(line[line.index(after: eq)...]).trimmingASCIISpaces()
                if indented, let parent {
                    sections[sections.count - 1].1[parent + "." + key] = value
                } else {
                    sections[sections.count - 1].1[key] = value
                    parent = value.isEmpty ? key : nil
                }
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
