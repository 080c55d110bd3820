import Foundation
import SigV4
import SignInClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The package end to end, as an app would use it, against scripts/serve (or a deployment):
//
//   scripts/serve                      # prints the three URLs and the S3 endpoint
//   swift run signin-example --signin URL --refresh URL --link URL --s3 http://127.0.0.1:PORT \
//       --token "$(scripts/mint-token apple 001234.example.0001)" [--photo FILE] [--store PATH]
//
// Signs in, uploads a photo to the user's prefix with the session's STS credentials (a SigV4 PUT,
// signed by this package's own SigV4 module: an iOS app uses aws-sdk-swift's S3Client with the
// adapter of docs/client.md instead), refreshes, lists the sessions and signs out.
/// A 1×1 JPEG, so the example needs no file.
let sampleJPEG: [UInt8] = [
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0x08, 0x07, 0x07, 0x07, 0x09, 0x09, 0x08,
    0x0A, 0x0C, 0x14, 0x0D, 0x0C, 0x0B, 0x0B, 0x0C, 0x19, 0x12, 0x13, 0x0F, 0x14, 0x1D, 0x1A, 0x1F, 0x1E, 0x1D, 0x1A,
    0x1C, 0x1C, 0x20, 0x24, 0x2E, 0x27, 0x20, 0x22, 0x2C, 0x23, 0x1C, 0x1C, 0x28, 0x37, 0x29, 0x2C, 0x30, 0x31, 0x34,
    0x34, 0x34, 0x1F, 0x27, 0x39, 0x3D, 0x38, 0x32, 0x3C, 0x2E, 0x33, 0x34, 0x32, 0xFF, 0xD9,
]

let options = Options(CommandLine.arguments)
let session = SignInSession(
    configuration: SignInConfiguration(
        transport: FunctionURLTransport(
            signIn: options.url("signin"), refresh: options.url("refresh"), link: options.url("link")),
        store: FileSessionStore(url: URL(fileURLWithPath: options["store"] ?? ".tmp/signin-example/session.json")),
        device: "signin-example"))

let states = Task {
    for await state in await session.authStates() { print("state:", describe(state)) }
}

do {
    let signedIn = try await session.signIn(
        with: Provider(rawValue: options["provider"] ?? "apple") ?? .apple, idToken: options["token"] ?? "")
    print("signed in: \(signedIn.user.serviceUserID) (new: \(signedIn.isNewUser)), prefix \(signedIn.storage.prefix)")

    let photo = try options["photo"].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? Data(sampleJPEG)
    let key = "\(signedIn.storage.prefix)photos/example-\(Int(Date().timeIntervalSince1970)).jpg"
    let status = try await session.withCredentials(retryingOnceIf: { $0 is ExpiredToken }) { credentials in
        try await upload(
            photo, key: key, storage: signedIn.storage, credentials: credentials, endpoint: options.url("s3"))
    }
    print("uploaded \(photo.count) bytes to s3://\(signedIn.storage.bucket)/\(key): HTTP \(status)")

    try await session.refresh()
    print("refreshed: credentials \(try await session.credentials().redacted)")

    for listed in try await session.sessions() {
        print("session \(listed.sessionId.prefix(8))… \(listed.device ?? "-") current: \(listed.current)")
    }
    print("signed out (server confirmed: \(await session.signOut()))")
} catch let error as SignInError {
    print("failed: \(error) → \(error.recommendation)")
    exit(1)
}
try? await Task.sleep(for: .milliseconds(100))
states.cancel()

/// S3 said the credentials expired: refresh once and retry (aws-sdk-swift reports `ExpiredToken`).
struct ExpiredToken: Error {}
struct UploadFailed: Error, CustomStringConvertible {
    var status: Int
    var description: String { "upload failed: HTTP \(status)" }
}

func upload(
    _ body: Data, key: String, storage: StorageLocation, credentials: TemporaryCredentials, endpoint: URL
) async throws -> Int {
    let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
    let path = "/\(storage.bucket)/" + SigV4.encodePath(key)
    var signer = SigV4Signer(service: "s3", region: storage.region)
    let signed = signer.sign(
        SignableRequest(
            method: "PUT", host: host, path: path, headers: [("Content-Type", "image/jpeg")], body: [UInt8](body)),
        credentials: SigningCredentials(
            accessKeyID: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey,
            sessionToken: credentials.sessionToken),
        dateMilliseconds: Int64(Date().timeIntervalSince1970 * 1000))
    var request = URLRequest(url: URL(string: "\(endpoint.scheme ?? "https")://\(host)\(path)")!)
    request.httpMethod = "PUT"
    request.httpBody = body
    request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
    for header in signed.headers where header.name.lowercased() != "host" {
        request.setValue(header.value, forHTTPHeaderField: header.name)
    }
    let (answer, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    if status == 400 || status == 403, String(decoding: answer, as: UTF8.self).contains("ExpiredToken") {
        throw ExpiredToken()
    }
    guard (200..<300).contains(status) else { throw UploadFailed(status: status) }
    return status
}

func describe(_ state: AuthState) -> String {
    switch state {
    case .signedIn(let user): return "signed in (\(user.serviceUserID))"
    case .refreshed: return "refreshed"
    case .signedOut(let reason): return "signed out (\(reason))"
    case .unknown: return "unknown (store locked)"
    }
}

struct Options {
    var values: [String: String] = [:]
    init(_ argv: [String]) {
        var index = 1
        while index + 1 < argv.count {
            values[String(argv[index].dropFirst(2))] = argv[index + 1]
            index += 2
        }
    }
    subscript(_ name: String) -> String? { values[name] }
    func url(_ name: String) -> URL { URL(string: values[name] ?? "http://127.0.0.1:1/")! }
}
