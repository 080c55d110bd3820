import PlatformSupport
import StrictJSON
import TestSupport

@testable import CryptoPrimitives

/// The App Store-shaped test PKI (signin_tools/standins/appstore_pki.py), made by Python
/// `cryptography` once per test run: every variant's certificate and validity window, and the
/// root as PEM. No key leaves the Python process.
struct TestPKI: Sendable {
    static let leafOID = "1.2.840.113635.100.6.11.1"
    static let intermediateOID = "1.2.840.113635.100.6.2.1"

    /// Made on first use; a failure (no venv, Python error) fails every test that needs it.
    static let shared: Result<TestPKI, PythonCryptography.Failure> = {
        do {
            let script = "from signin_tools.standins.appstore_pki import main; main(['certificates'])"
            return .success(try TestPKI(json: JSONParser.parse(Array(try PythonCryptography.run(script).utf8))))
        } catch let failure as PythonCryptography.Failure {
            return .failure(failure)
        } catch {
            return .failure(PythonCryptography.Failure(description: "test PKI: \(error)"))
        }
    }()

    static func get() throws -> TestPKI { try shared.get() }

    /// The time the PKI was made around (seconds since the epoch): every default certificate is
    /// valid then.
    let now: Int64
    let rootPEM: String
    let otherRootPEM: String
    private let certificates: [String: [UInt8]]
    private let windows: [String: (Int64, Int64)]

    init(json: JSONValue) throws {
        guard let now = json["now"]?.int64Value, let rootPEM = json["root_pem"]?.stringValue,
            let otherRootPEM = json["other_root_pem"]?.stringValue, let certs = json["certificates"]?.objectValue,
            let windows = json["windows"]?.objectValue
        else { throw PythonCryptography.Failure(description: "test PKI: unexpected shape") }
        self.now = now
        self.rootPEM = rootPEM
        self.otherRootPEM = otherRootPEM
        var certificates: [String: [UInt8]] = [:]
        for (name, value) in certs { certificates[name] = value.stringValue.flatMap(Base64.decode) }
        self.certificates = certificates
        var spans: [String: (Int64, Int64)] = [:]
        for (name, value) in windows {
            if let pair = value.arrayValue, pair.count == 2, let a = pair[0].int64Value, let b = pair[1].int64Value {
                spans[name] = (a, b)
            }
        }
        self.windows = spans
    }

    func der(_ name: String) -> [UInt8] { certificates[name]! }
    func certificate(_ name: String) throws -> X509Certificate { try X509Certificate(der: der(name)) }
    /// notBefore and notAfter of a variant, as Python wrote them.
    func window(_ name: String) -> (notBefore: Int64, notAfter: Int64) { windows[name]! }

    func verifier(rootPEM pem: String? = nil) throws -> X509ChainVerifier {
        try X509ChainVerifier(
            roots: X509Certificate.certificates(pem: pem ?? rootPEM), leafExtensionOID: Self.leafOID,
            intermediateExtensionOID: Self.intermediateOID)
    }
}
