// swift-tools-version:6.1
// The Swift micro-benchmarks (ordo-one/benchmark): token verification, SigV4, JSON, the App Store
// chain and whole warm sign-ins and refreshes against an in-process loopback stand-in, counting
// mallocs, instructions and wall time; the allocation and instruction thresholds are checked in
// (Thresholds/) and scripts/test fails on a regression. Run: `cd Benchmarks && swift package benchmark`.
//
// A package of its own, so an app that adds SignInClient resolves none of it. It does not depend on
// the root package: a path dependency would see only its products, and the backend's modules share
// with `package` access, which does not cross packages. So this package builds the backend's own
// sources (`Backend` is a symlink to ../Sources) as its own targets, declared below with the same
// dependencies as in ../Package.swift; the root package gains no product and no `public` API.
// Why: docs/decisions/tests-and-tools.md, "The micro-benchmarks are a package of their own".
import PackageDescription

/// An account module (../Package.swift's layers), from ../Sources.
func account(_ name: String, _ layers: [Target.Dependency]) -> Target {
    .target(
        name: name,
        dependencies: layers + (name == "AccountModel" ? [] : ["PurchaseModel"]) + [
            "AWSClients", "TokenVerification", "CryptoPrimitives", "StrictJSON", "PlatformSupport",
        ],
        path: "Backend/\(name)")
}

let package = Package(
    name: "signin-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .executableTarget(
            name: "SignInBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "CLoopbackStandIn", "AuthService", "SignInFunction", "RefreshFunction", "LinkFunction", "LambdaRuntime",
                "AppStoreSignedData", "TokenVerification",
                "AWSClients", "SigV4", "CurlHTTP", "CryptoPrimitives", "StrictJSON", "PlatformSupport",
            ],
            path: "SignInBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // S3, STS and a JWKS host on 127.0.0.1, in C so it allocates nothing while it serves.
        .target(name: "CLoopbackStandIn", path: "CLoopbackStandIn"),

        // The backend's modules, from ../Sources, as ../Package.swift declares them.
        .target(name: "CCurlShim", path: "Backend/CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "COpenSSL", path: "Backend/COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "CCryptoShim", dependencies: ["COpenSSL"], path: "Backend/CCryptoShim"),
        .target(name: "PlatformSupport", path: "Backend/PlatformSupport"),
        .target(name: "StrictJSON", dependencies: ["PlatformSupport"], path: "Backend/StrictJSON"),
        .target(
            name: "CryptoPrimitives", dependencies: ["COpenSSL", "CCryptoShim", "StrictJSON", "PlatformSupport"],
            path: "Backend/CryptoPrimitives"),
        .target(name: "CurlHTTP", dependencies: ["CCurlShim", "PlatformSupport"], path: "Backend/CurlHTTP"),
        .target(name: "CMallocShim", path: "Backend/CMallocShim"),
        .target(
            name: "LambdaRuntime", dependencies: ["CurlHTTP", "StrictJSON", "PlatformSupport", "CMallocShim"],
            path: "Backend/LambdaRuntime"),
        .target(name: "SigV4", dependencies: ["CryptoPrimitives", "PlatformSupport"], path: "Backend/SigV4"),
        .target(
            name: "AWSClients",
            dependencies: ["SigV4", "CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            path: "Backend/AWSClients"),
        .target(
            name: "TokenVerification", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            path: "Backend/TokenVerification"),
        .target(
            name: "SignInWithApple", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            path: "Backend/SignInWithApple"),
        .target(
            name: "AppStoreSignedData", dependencies: ["CryptoPrimitives", "StrictJSON", "PlatformSupport"],
            path: "Backend/AppStoreSignedData"),
        .target(
            name: "AppStoreServerAPI", dependencies: ["CryptoPrimitives", "CurlHTTP", "StrictJSON", "PlatformSupport"],
            path: "Backend/AppStoreServerAPI"),
        // What a purchase grants and its stored state (no I/O; the App Store's and, next, Google's).
        .target(name: "PurchaseModel", dependencies: ["StrictJSON", "PlatformSupport"], path: "Backend/PurchaseModel"),
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
        .target(
            name: "AuthService",
            dependencies: [
                "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountSuspensions",
                "AccountLinks",
                "AccountDeletion", "AccountPurchases", "AccountEvents", "AccountSignIn", "LambdaRuntime", "AWSClients",
                "CurlHTTP",
                "TokenVerification", "SignInWithApple",
                "AppStoreSignedData", "AppStoreServerAPI", "CryptoPrimitives", "StrictJSON", "PlatformSupport",
            ],
            path: "Backend/AuthService"),
        .target(
            name: "SignInFunction",
            dependencies: ["AuthService", "AccountModel", "AccountSignIn", "TokenVerification", "PlatformSupport"],
            path: "Backend/SignInFunction"),
        .target(
            name: "RefreshFunction",
            dependencies: ["AuthService", "AccountModel", "AccountSessions", "TokenVerification", "PlatformSupport"],
            path: "Backend/RefreshFunction"),
        .target(
            name: "LinkFunction",
            dependencies: [
                "AuthService", "PurchaseModel", "AccountModel", "AccountStore", "AccountSessions", "AccountLinks",
                "AccountDeletion", "AccountPurchases", "AccountEvents", "AWSClients", "TokenVerification",
                "AppStoreSignedData", "SignInWithApple", "StrictJSON", "PlatformSupport",
            ],
            path: "Backend/LinkFunction"),
    ],
    swiftLanguageModes: [.v6]
)
