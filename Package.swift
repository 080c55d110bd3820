// swift-tools-version:6.0
// The module graph reads like the design: C shims (libcurl loaded at run time, libcrypto linked),
// platform and JSON basics, HTTP over curl, the Lambda runtime, AWS signing and clients, token
// verification, the account modules layer by layer (documents, store, flows, the operator's), the service
// (envelope, config, handler), each function's actions, three thin executables.
// Why each module is as it is: docs/decisions/ (one file per area; README.md's module table links them).
import PackageDescription

/// Typecheck mirrors are their own modules (`SmithyMirror`, …), never named like the frameworks
/// they mirror; the targets that check against them import them under the real names.
func importing(_ mirrored: [String]) -> [SwiftSetting] {
    [.unsafeFlags(mirrored.flatMap { ["-module-alias", "\($0)=\($0)Mirror"] })]
}

/// An account module: its own layer's dependencies, over the clients and rules every layer uses.
func account(_ name: String, _ layers: [Target.Dependency]) -> Target {
    .target(
        name: name,
        dependencies: layers + (name == "AccountModel" ? [] : ["PurchaseModel"]) + [
            "AWSClients", "TokenVerification", "CryptoPrimitives", "StrictJSON", "PlatformSupport",
        ],
        swiftSettings: [.unsafeFlags(["-Osize"], .when(configuration: .release))])
}

/// Every account module, bottom layer first.
let allAccountModules: [Target.Dependency] = [
    "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions", "AccountLinks",
    "AccountDeletion", "AccountPurchases", "AccountEvents", "AccountSignIn", "AccountOperator", "AccountTransfer",
]

/// An account module's tests: every account module, re-exported by `AccountTestSupport` with the
/// in-memory S3 and the flows wired as the functions wire them (their `package` API, no `@testable`).
func accountTests(_ name: String) -> Target {
    .testTarget(
        name: name,
        dependencies: [
            "AccountTestSupport", "AWSClients", "TokenVerification", "StrictJSON", "PlatformSupport", "TestSupport",
        ])
}

let package = Package(
    name: "swift-signin-backend",
    // For the client library (SignInClient); the Linux build of the functions ignores it.
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        // The app's side (issue 19): the one product an app adds. Foundation/URLSession only here.
        .library(name: "SignInClient", targets: ["SignInClient"]),
        .executable(name: "auth-signin", targets: ["auth-signin"]),
        .executable(name: "auth-refresh", targets: ["auth-refresh"]),
        .executable(name: "auth-link", targets: ["auth-link"]),
        .executable(name: "authctl", targets: ["authctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // libcurl is reached only through this shim, which dlopen()s libcurl.so.4 at start-up:
        // no link-time reference, so no Debian symbol-version tag (see docs/decisions/runtime-and-http.md,
        // "libcurl is loaded with dlopen").
        .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
        // OpenSSL's libcrypto (SHA-256, HMAC, RSA verify), linked normally: its symbol versions
        // (OPENSSL_3.0.0) are upstream's and the same on Amazon Linux 2023. Random bytes come from
        // the kernel (PlatformSupport.SecureRandom: the stdlib's SystemRandomNumberGenerator, getrandom(2)).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libcrypto's STACK_OF(X509) macros as functions (Swift imports no function-like macro).
        .target(name: "CCryptoShim", dependencies: ["COpenSSL"]),

        .target(name: "PlatformSupport"),
        .target(name: "StrictJSON", dependencies: ["PlatformSupport"]),
        .target(name: "CryptoPrimitives", dependencies: ["COpenSSL", "CCryptoShim", "StrictJSON", "PlatformSupport"]),
        .target(name: "CurlHTTP", dependencies: ["CCurlShim", "PlatformSupport"]),
        // glibc's allocator settings for a long-running process on one thread (mallopt).
        .target(name: "CMallocShim"),
        .target(name: "LambdaRuntime", dependencies: ["CurlHTTP", "StrictJSON", "PlatformSupport", "CMallocShim"]),
        .target(name: "SigV4", dependencies: ["CryptoPrimitives", "PlatformSupport"]),
        .target(
            name: "AWSClients",
            dependencies: ["SigV4", "CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"]),
        .target(
            name: "TokenVerification", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"]),
        // Sign in with Apple's token endpoints (exchange a code, revoke the tokens) for account
        // deletion; the caller verifies the id_token and reads the key's SSM parameter itself.
        .target(
            name: "SignInWithApple", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            swiftSettings: [.unsafeFlags(["-Osize"], .when(configuration: .release))]),
        // App Store signed data (transactions, renewal info, notifications) verified as Apple's library does.
        .target(
            name: "AppStoreSignedData", dependencies: ["CryptoPrimitives", "StrictJSON", "PlatformSupport"],
            swiftSettings: [.unsafeFlags(["-Osize"], .when(configuration: .release))]),
        // The App Store Server API (Get All Subscription Statuses) with its ES256 bearer token; the
        // caller verifies what it answers with AppStoreSignedData.
        .target(
            name: "AppStoreServerAPI", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            swiftSettings: [.unsafeFlags(["-Osize"], .when(configuration: .release))]),
        // The account code, layer by layer (docs/decisions/account-modules.md): the documents and
        // their rules (no I/O), the store over S3 (no flows), one module per flow over them, and the
        // operator's over the flows. The compiler keeps each layer from reaching one above it.
        // -Osize (release), as for the App Store / Sign in with Apple modules: less zip for a few
        // tenths of a percent more instructions per warm sign-in
        // (docs/decisions/runtime-and-http.md, "libstdc++ is linked statically").
        // What a purchase grants and its stored state (no I/O; the App Store's and, next, Google's).
        .target(
            name: "PurchaseModel", dependencies: ["StrictJSON", "PlatformSupport"],
            swiftSettings: [.unsafeFlags(["-Osize"], .when(configuration: .release))]),
        account("AccountModel", ["PurchaseModel"]),
        account("AccountStore", ["AccountModel"]),
        account("AccountSessions", ["AccountModel", "AccountStore"]),
        account("AccountSuspensions", ["AccountModel", "AccountStore"]),
        account("AccountLinks", ["AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions"]),
        account("AccountDeletion", ["AccountModel", "AccountStore", "AccountSessions", "AccountLinks"]),
        account("AccountPurchases", ["AccountModel", "AccountStore", "AccountSessions"]),
        account(
            "AccountEvents",
            [
                "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions", "AccountLinks",
                "AccountDeletion",
            ]),
        account(
            "AccountSignIn", ["AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions", "AccountLinks"]),
        account(
            "AccountOperator",
            [
                "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions", "AccountLinks",
                "AccountDeletion",
                "AccountPurchases",
            ]),
        account("AccountTransfer", ["AccountModel", "AccountStore", "AccountSessions", "AccountLinks"]),
        .target(
            name: "AuthService",
            dependencies: [
                "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions",
                "AccountLinks",
                "AccountDeletion", "AccountPurchases", "AccountEvents", "AccountSignIn", "LambdaRuntime", "AWSClients",
                "CurlHTTP", "TokenVerification", "SignInWithApple",
                "AppStoreSignedData", "AppStoreServerAPI", "CryptoPrimitives",
                "StrictJSON", "PlatformSupport",
            ]),

        // Each function's actions, so that its executable links only them and the flows they run.
        .target(
            name: "SignInFunction",
            dependencies: ["AuthService", "AccountModel", "AccountSignIn", "TokenVerification", "PlatformSupport"]),
        .target(
            name: "RefreshFunction",
            dependencies: ["AuthService", "AccountModel", "AccountSessions", "TokenVerification", "PlatformSupport"]),
        .target(
            name: "LinkFunction",
            dependencies: [
                "AuthService", "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountLinks",
                "AccountDeletion", "AccountPurchases", "AccountEvents", "AWSClients", "TokenVerification",
                "AppStoreSignedData", "SignInWithApple", "StrictJSON", "PlatformSupport",
            ]),
        .executableTarget(name: "auth-signin", dependencies: ["SignInFunction", "AuthService", "LambdaRuntime"]),
        .executableTarget(name: "auth-refresh", dependencies: ["RefreshFunction", "AuthService", "LambdaRuntime"]),
        .executableTarget(name: "auth-link", dependencies: ["LinkFunction", "AuthService", "LambdaRuntime"]),
        // The operator's console (issue 20): the account domain's operator actions over the
        // operator's own AWS credentials; no Foundation.
        .executableTarget(
            name: "authctl",
            dependencies: [
                "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions",
                "AccountLinks",
                "AccountDeletion", "AccountPurchases", "AccountOperator",
                "AccountTransfer", "AWSClients", "CurlHTTP", "StrictJSON", "PlatformSupport", "TokenVerification",
                "SignInWithApple", "CryptoPrimitives",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Test-only function: echo / throw / init-error / big-response, for runtime tests and the bench.
        .executableTarget(name: "lambda-probe", dependencies: ["LambdaRuntime"]),
        // The Swift micro-benchmarks (token verification, SigV4, JSON, the App Store chain, whole warm
        // sign-ins) are a package of their own, Benchmarks/, so an app adding SignInClient resolves none
        // of ordo-one/benchmark; scripts/check-benchmarks checks their thresholds.

        // The libFuzzer targets (Tests/fuzz, scripts/fuzz): one executable, the target named by its
        // first argument. A plain build links it as a replayer of inputs; scripts/fuzz builds it
        // with FUZZING, ASan and coverage in .build/fuzz (docs/decisions/tests-and-tools.md, "Fuzzing").
        .executableTarget(
            name: "fuzz",
            dependencies: [
                "CFuzzerDriver", "AuthService", "SignInFunction", "RefreshFunction", "LinkFunction", "PurchaseModel",
                "AccountModel", "AccountStore", "AccountPurchases",
                "AccountEvents", "AppStoreSignedData", "AppStoreServerAPI",
                "AWSClients",
                "TokenVerification",
                "CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport",
            ]),
        // libFuzzer's LLVMFuzzerRunDriver, declared (fuzz builds link libFuzzer's no-main runtime).
        .target(name: "CFuzzerDriver"),

        // The app's client (docs/client.md): Foundation/URLSession (FoundationNetworking on Linux),
        // no backend module. The example CLI signs its S3 PUT with the backend's SigV4 (Linux only).
        .target(name: "SignInClient"),
        .executableTarget(
            name: "signin-example", dependencies: ["SignInClient", "SigV4"], path: "Examples/signin-example"),
        // Drives the client against scripts/serve for Tests/integration/test_client.py (one scenario a run).
        .executableTarget(name: "client-check", dependencies: ["SignInClient"], path: "Tests/ClientCheck"),
        .testTarget(
            name: "SignInClientTests",
            dependencies: ["SignInClient", .target(name: "SecItemMirror", condition: .when(platforms: [.linux]))]),
        // The Keychain backend's Linux typecheck (docs/client.md, "What the Linux build proves"):
        // SignInClient's SecurityKeychainBackend.swift (a symlink) built against a header holding
        // exactly the Security declarations it uses. Never linked (nothing defines those symbols
        // here), in no product, and the mirror is not named Security and reaches no Darwin build.
        .systemLibrary(name: "SecItemMirror", path: "Tests/Mirrors/SecItemMirror"),
        .target(
            name: "KeychainBackendTypecheck",
            dependencies: ["SignInClient", .target(name: "SecItemMirror", condition: .when(platforms: [.linux]))],
            path: "Tests/KeychainBackendTypecheck", swiftSettings: [.define("KEYCHAIN_BACKEND_TYPECHECK")]),

        // The aws-sdk-swift adapter apps copy (docs/client.md), built here against a mirror of exactly
        // the smithy-swift / aws-sdk-swift declarations it uses (Tests/Mirrors; each file names its
        // source). In no product: an app never resolves the mirrors, which are not named like the
        // real modules (`SmithyMirror`…) and are imported under the real names only here.
        .target(name: "SmithyMirror", path: "Tests/Mirrors/Smithy"),
        .target(
            name: "SmithyIdentityAPIMirror", dependencies: ["SmithyMirror"], path: "Tests/Mirrors/SmithyIdentityAPI",
            swiftSettings: importing(["Smithy"])),
        .target(
            name: "SmithyIdentityMirror", dependencies: ["SmithyMirror", "SmithyIdentityAPIMirror"],
            path: "Tests/Mirrors/SmithyIdentity", swiftSettings: importing(["Smithy", "SmithyIdentityAPI"])),
        .target(name: "ClientRuntimeMirror", path: "Tests/Mirrors/ClientRuntime"),
        .target(
            name: "AWSClientRuntimeMirror", dependencies: ["ClientRuntimeMirror"],
            path: "Tests/Mirrors/AWSClientRuntime",
            swiftSettings: importing(["ClientRuntime"])),
        .target(
            name: "SignInAWSAdapter",
            dependencies: ["SignInClient", "SmithyMirror", "SmithyIdentityMirror", "AWSClientRuntimeMirror"],
            swiftSettings: importing(["Smithy", "SmithyIdentity", "AWSClientRuntime"])),
        .testTarget(
            name: "SignInAWSAdapterTests",
            dependencies: [
                "SignInAWSAdapter", "SignInClient", "SmithyIdentityMirror", "AWSClientRuntimeMirror",
                "ClientRuntimeMirror",
            ],
            swiftSettings: importing(["SmithyIdentity", "AWSClientRuntime", "ClientRuntime"])),

        // Shared by the test targets (Foundation's Process: never linked into a function): the
        // loopback stand-ins' process and the independent Python `cryptography` checks.
        .target(name: "TestSupport", dependencies: ["StrictJSON"], path: "Tests/TestSupport"),
        .testTarget(name: "PlatformSupportTests", dependencies: ["PlatformSupport", "TestSupport"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON", "TestSupport"]),
        .testTarget(
            name: "CryptoPrimitivesTests",
            dependencies: ["CryptoPrimitives", "StrictJSON", "PlatformSupport", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "CurlHTTPTests", dependencies: ["CurlHTTP", "PlatformSupport", "TestSupport"]),
        .testTarget(name: "LambdaRuntimeTests", dependencies: ["LambdaRuntime", "StrictJSON"]),
        .testTarget(
            name: "SigV4Tests", dependencies: ["SigV4", "StrictJSON", "PlatformSupport", "CryptoPrimitives"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "AWSClientsTests",
            dependencies: ["AWSClients", "CurlHTTP", "PlatformSupport", "StrictJSON", "TestSupport"],
            exclude: ["Stubs"]),
        .testTarget(
            name: "TokenVerificationTests",
            dependencies: ["TokenVerification", "CryptoPrimitives", "StrictJSON", "PlatformSupport", "TestSupport"]),
        .testTarget(
            name: "SignInWithAppleTests",
            dependencies: [
                "SignInWithApple", "CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport", "TestSupport",
            ]),
        .testTarget(
            name: "AppStoreSignedDataTests",
            dependencies: ["AppStoreSignedData", "CryptoPrimitives", "StrictJSON", "PlatformSupport", "TestSupport"]),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreServerAPI", "CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport", "TestSupport",
            ]),
        // The account modules' tests, a target per module, over the in-memory S3 and the flows wired
        // as the functions wire them (AccountTestSupport); the simulation is its own target, the
        // proof of the flows' interleavings (docs/decisions/tests-and-tools.md).
        .target(
            name: "AccountTestSupport",
            dependencies: allAccountModules + ["AWSClients", "StrictJSON", "PlatformSupport"],
            path: "Tests/AccountTestSupport"),
        accountTests("PurchaseModelTests"),
        accountTests("AccountModelTests"),
        accountTests("AccountStoreTests"),
        accountTests("AccountSessionsTests"),
        accountTests("AccountSuspensionsTests"),
        accountTests("AccountLinksTests"),
        accountTests("AccountDeletionTests"),
        accountTests("AccountPurchasesTests"),
        accountTests("AccountEventsTests"),
        accountTests("AccountSignInTests"),
        accountTests("AccountOperatorTests"),
        accountTests("AccountTransferTests"),
        accountTests("AccountSimulationTests"),
        .testTarget(
            name: "AuthServiceTests",
            dependencies: [
                "AuthService", "SignInFunction", "RefreshFunction", "LinkFunction", "AccountModel", "AccountStore",
                "AccountDeletion", "AccountEvents", "StrictJSON",
                "LambdaRuntime", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
