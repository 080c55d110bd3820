/// The fuzz targets: one per parser that meets outside bytes. Seeds and regression inputs live in
/// `Tests/fuzz/TARGET/`; scripts/fuzz runs one or all (docs/decisions/tests-and-tools.md, "Fuzzing").
enum FuzzTarget: String, CaseIterable {
    /// StrictJSON: parse; round trip.
    case json
    /// TokenVerification's compact JWS parser: canonical parts only.
    case jws
    /// AWSClients' XML reader through the S3 and STS answer decoders and the error classifier.
    case xml
    /// AuthService's event reading: direct invokes, Function URLs, Apple's notifications, the schedule.
    case events
    /// AccountModel's stored documents: providers.json, profile.json, sessions, deletion records.
    case documents
    /// PlatformSupport's ISO-8601 timestamps.
    case iso8601
    /// PlatformSupport's base64 and base64url decoders: canonical only.
    case base64
    /// AccountModel's refresh-token parser.
    case refreshToken = "refresh-token"
    /// AppStoreSignedData: signed transactions, renewal info and notifications, and their payloads.
    case appstore
    /// CryptoPrimitives' X.509 certificates from DER and PEM bundles.
    case x509

    /// The target libFuzzer's callback runs (it cannot capture anything).
    nonisolated(unsafe) static var selected = FuzzTarget.json

    func run(_ bytes: [UInt8]) {
        switch self {
        case .json: JSONFuzz.run(bytes)
        case .jws: CompactJWSFuzz.run(bytes)
        case .xml: XMLAnswerFuzz.run(bytes)
        case .events: EventFuzz.run(bytes)
        case .documents: DocumentFuzz.run(bytes)
        case .iso8601: ISO8601Fuzz.run(bytes)
        case .base64: Base64Fuzz.run(bytes)
        case .refreshToken: RefreshTokenFuzz.run(bytes)
        case .appstore: AppStoreFuzz.run(bytes)
        case .x509: X509Fuzz.run(bytes)
        }
    }

    /// Seeds the code itself writes (`fuzz seeds TARGET DIR`); the others come from fixtures.
    var generatedSeeds: [(name: String, bytes: [UInt8])] {
        switch self {
        case .documents: return DocumentFuzz.seeds
        case .iso8601: return ISO8601Fuzz.seeds
        case .base64: return Base64Fuzz.seeds
        case .refreshToken: return RefreshTokenFuzz.seeds
        default: return []
        }
    }
}
