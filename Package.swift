// swift-tools-version: 6.2
import PackageDescription

// The target graph is the architecture (shared/docs/ARCHITECTURE.md): each layer depends
// only downward, and the compiler enforces it.
let package = Package(
    name: "tokenswap",
    // Deployment minimums for the TokenSwapClient library and its tests (ContinuousClock,
    // async URLSession, Synchronization in the tests), the one part an app links on Apple
    // platforms. The server targets build on Linux only; this claims nothing for them.
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "tokenswap", targets: ["tokenswap"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "TokenSwapClient", targets: ["TokenSwapClient"]),
        // For FuzzTesting/ (a separate package that sees products only): the service's
        // parsers and the key ring. No app links these.
        .library(name: "TokenSwap", targets: ["TokenSwap"]),
        .library(name: "Sealing", targets: ["Sealing"]),
        .executable(name: "tokenswap-device-login", targets: ["tokenswap-device-login"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // No JSON trait: its JSONSnapshot needs full Foundation, which links ICU's data
        // (34 MB); TokenSwap reads the file with its own parser (JSONFileSnapshot).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
    ],
    targets: [
        // C shims: what Swift cannot reach directly (OpenSSL macros, accept4 flags). Not
        // "CSystem": swift-system, which swift-configuration uses, already has that name.
        .target(
            name: "COpenSSL",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(name: "CPosix"),

        // Pure HTTP/1.1: parsing and encoding of bytes. No I/O, no Foundation.
        .target(name: "HTTPCore"),

        // POSIX sockets + Dispatch: event loops, non-blocking socket channels, addresses.
        .target(name: "Transport", dependencies: ["CPosix"]),

        // TLS over memory BIOs (OpenSSL): a byte transform with no I/O, client and server
        // side, shared by the server and the client.
        .target(name: "TLS", dependencies: ["COpenSSL"]),

        // The HTTP/1.1 server: listener, connections, deadlines, router; HTTPS via TLS.
        .target(name: "HTTPServer", dependencies: ["HTTPCore", "Transport", "TLS"]),

        // The upstream HTTP/1.1 client: pooled keep-alive connections, TLS via OpenSSL.
        .target(name: "HTTPClient", dependencies: ["HTTPCore", "Transport", "TLS"]),

        // Sealed refresh tokens: AES-256-GCM key ring; the digests and legacy ciphers the
        // product needs, so that only Sealing and TLS reach OpenSSL.
        .target(name: "Sealing", dependencies: ["COpenSSL"]),

        // The product: configuration, providers, grant endpoints, lifecycle, metrics.
        .target(
            name: "TokenSwap",
            dependencies: [
                "HTTPServer", "HTTPClient", "Sealing", "TLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),

        // The embedded FAKE provider of `serve --sandbox`: outside the product library, so
        // production code cannot reach it; the executable wires it in.
        .target(
            name: "TokenSwapSandbox",
            dependencies: ["TokenSwap", "HTTPServer", "HTTPClient", "HTTPCore", "Sealing"]),

        .executableTarget(
            name: "tokenswap",
            dependencies: [
                "TokenSwap", "TokenSwapSandbox", "Sealing", "HTTPServer", "Transport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The client kit for apps (CONTRACT §11): Foundation only, no server target, so an
        // iOS or macOS app can depend on it alone.
        .target(name: "TokenSwapClient"),
        // The client kit's example program (README: "Using tokenswap from an app").
        .executableTarget(
            name: "tokenswap-device-login",
            dependencies: [
                "TokenSwapClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: child processes spawned and reaped without Foundation's Process; a
        // handler's response awaited outside a server.
        .target(name: "CChildProcess", path: "Tests/CChildProcess"),
        .target(
            name: "TestSupport", dependencies: ["CChildProcess", "HTTPServer"],
            path: "Tests/TestSupport"),

        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "HTTPCore", "Transport", "TLS", "TestSupport"]),
        // Fixtures (PKI script, Python stub) are run from the source tree, not bundled.
        .testTarget(
            name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPCore", "TLS", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "SealingTests", dependencies: ["Sealing", "TestSupport"]),
        // Providers, key rings, requests and log capture shared by the product's test targets.
        .target(
            name: "TokenSwapFixtures",
            dependencies: ["TokenSwap", "HTTPServer", "HTTPClient", "HTTPCore", "Sealing"],
            path: "Tests/TokenSwapFixtures"),
        .testTarget(
            name: "TokenSwapTests", dependencies: ["TokenSwap", "TokenSwapFixtures", "TestSupport"]),
        // The sandbox's own behaviour, and the grant endpoints against it over real sockets.
        .testTarget(
            name: "TokenSwapSandboxTests",
            dependencies: [
                "TokenSwapSandbox", "TokenSwap", "TokenSwapFixtures", "HTTPServer", "TestSupport",
            ]),
        .testTarget(name: "TokenSwapClientTests", dependencies: ["TokenSwapClient"]),
        // Drives the real `tokenswap` binary as a child process over real sockets, against
        // its sandbox and a separate stub provider process (Fixtures, run from the tree).
        // TokenSwapClient: the client kit against the real binary, as an app would use it.
        .testTarget(
            name: "EndToEndTests", dependencies: ["HTTPCore", "TestSupport", "TokenSwapClient"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
