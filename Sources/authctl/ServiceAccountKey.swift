import CryptoPrimitives
import StrictJSON

#if canImport(Glibc)
import Glibc
#endif

/// A Google service account's JSON key file, as the Cloud console hands it out: what signs the
/// bearer token of the RISC management API. The private key never appears in an error, a
/// description or a mirror (`RSAPrivateKey` redacts itself; messages name the member, never its value).
struct ServiceAccountKey: CustomStringConvertible {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// `client_email`: the token's `iss` and `sub`.
    let clientEmail: String
    /// `private_key_id`: the token header's `kid`.
    let privateKeyID: String
    let key: RSAPrivateKey

    var description: String { "ServiceAccountKey(\(clientEmail), key redacted)" }

    /// Reads and checks the file at `path` (at most 64 KiB).
    init(path: String) throws(Problem) {
        guard let bytes = Self.read(path) else { throw Problem(description: "cannot read the key file \(path)") }
        try self.init(json: bytes)
    }

    init(json bytes: [UInt8]) throws(Problem) {
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(bytes) } catch {
            throw Problem(description: "the key file is not JSON (\(error.description))")
        }
        guard let object = value.objectValue else { throw Problem(description: "the key file is not a JSON object") }
        guard object["type"]?.stringValue == "service_account" else {
            throw Problem(description: "the key file is not a service account's (type is not service_account)")
        }
        func member(_ name: String) throws(Problem) -> String {
            guard let text = object[name]?.stringValue, !text.isEmpty else {
                throw Problem(description: "the key file has no \(name)")
            }
            return text
        }
        clientEmail = try member("client_email")
        privateKeyID = try member("private_key_id")
        let pem = try member("private_key")
        do throws(RSAPrivateKey.KeyError) { key = try RSAPrivateKey(pem: pem) } catch {
            throw Problem(description: "the key file's private_key: \(error)")
        }
    }

    /// The bearer token of the RISC management API, as Google's documentation defines it: RS256,
    /// `kid` the key's id, `iss` = `sub` = the service account, `aud` the management service,
    /// valid for one hour from `nowSeconds`.
    func bearerToken(nowSeconds: Int64) -> String {
        key.compactJWS(
            keyID: privateKeyID,
            claims: JSONObject([
                ("iss", .string(clientEmail)), ("sub", .string(clientEmail)),
                ("aud", .string(RiscManagementClient.audience)), ("iat", .int(nowSeconds)),
                ("exp", .int(nowSeconds + 3600)),
            ]))
    }

    private static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while bytes.count <= 65_536 {
            let n = fread(&buffer, 1, buffer.count, file)
            bytes += buffer[..<n]
            if n < buffer.count { return ferror(file) == 0 && bytes.count <= 65_536 ? bytes : nil }
        }
        return nil
    }
}
