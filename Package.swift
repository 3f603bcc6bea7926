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
        // public parsers, the key ring, the store's reply parser, and the fuzz entry points
        // into the rest of the product. No app links these.
        .library(name: "TokenSwap", targets: ["TokenSwap"]),
        .library(name: "Sealing", targets: ["Sealing"]),
        .library(name: "RESPClient", targets: ["RESPClient"]),
        .library(name: "TokenSwapFuzzing", targets: ["TokenSwapFuzzing"]),
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
        // The client kit's DPoP keys and proofs (CONTRACT §13); CryptoKit on Apple
        // platforms. Never a dependency of a server target.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // C shims: what Swift cannot reach directly (OpenSSL macros, accept4 flags). Not
        // "CSystem": swift-system, which swift-configuration uses, already has that name.
        .target(
            name: "COpenSSL",
            // OpenSSL 3's API without what it deprecates: a deprecated call does not compile.
            cSettings: [
                .define("OPENSSL_API_COMPAT", to: "30000"), .define("OPENSSL_NO_DEPRECATED"),
            ],
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

        // A client connection's byte stream: a connected socket and, for TLS, the client
        // engine between it and the protocol (handshake, reads, writes, close_notify).
        // Shared by the two clients below; TLS stays free of I/O, Transport of OpenSSL.
        .target(name: "ClientStream", dependencies: ["Transport", "TLS"]),

        // The upstream HTTP/1.1 client: pooled keep-alive connections, TLS via OpenSSL.
        .target(
            name: "HTTPClient", dependencies: ["HTTPCore", "ClientStream", "Transport", "TLS"]),
        // The shared store's RESP2 client (Redis/Valkey, CONTRACT §12): pooled per loop, TLS.
        .target(name: "RESPClient", dependencies: ["ClientStream", "Transport", "TLS"]),

        // Sealed refresh tokens: AES-256-GCM key ring; the digests and legacy ciphers the
        // product needs, so that only Sealing and TLS reach OpenSSL.
        .target(name: "Sealing", dependencies: ["COpenSSL"]),

        // The product: configuration, providers, grant endpoints, lifecycle, metrics.
        .target(
            name: "TokenSwap",
            dependencies: [
                "HTTPServer", "HTTPClient", "RESPClient", "Sealing", "TLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),

        // The entry points of the libFuzzer targets (FuzzTesting/) into what is not public
        // in TokenSwap: its `package` declarations, reached from outside the product so that
        // nothing is public for fuzzing's sake. No target here depends on it.
        .target(name: "TokenSwapFuzzing", dependencies: ["TokenSwap", "Sealing", "Transport"]),

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

        // The client kit for apps (CONTRACT §11): Foundation and swift-crypto (DPoP,
        // §13), no server target, so an iOS or macOS app can depend on it alone.
        .target(
            name: "TokenSwapClient",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The client kit's example program (README: "Using tokenswap from an app").
        .executableTarget(
            name: "tokenswap-device-login",
            dependencies: [
                "TokenSwapClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Test support: child processes spawned and reaped without Foundation's Process,
        // the test PKI, a raw TCP client, volume counts, a handler's response awaited
        // outside a server.
        .target(name: "CChildProcess", path: "Tests/CChildProcess"),
        .target(
            name: "TestSupport", dependencies: ["CChildProcess", "HTTPServer"],
            path: "Tests/TestSupport"),
        // Providers, key rings, requests and log capture shared by the product's test targets.
        .target(
            name: "TokenSwapFixtures",
            dependencies: ["TokenSwap", "HTTPServer", "HTTPClient", "HTTPCore", "Sealing"],
            path: "Tests/TokenSwapFixtures"),

        // Tests by resource class (README "Tests"). Unit targets are pure: no sockets, no
        // time bound on the wall clock, no child process but the test PKI's one openssl
        // run; a busy machine cannot fail them. Volume runs (a million seals, the scanner's
        // property run) take a small count unless TOKENSWAP_VOLUME_TESTS=1
        // (scripts/prove/volume).
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore", "TestSupport"]),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "TestSupport"]),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "TestSupport"]),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPCore", "Transport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPCore"]),
        .testTarget(name: "RESPClientTests", dependencies: ["RESPClient"]),
        .testTarget(
            name: "SealingTests",
            dependencies: [
                "Sealing", "TestSupport",
                // Signatures made elsewhere, for the ES256 check (tests only).
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Crypto signs the DPoP proofs the service checks (CONTRACT §13): a test's key, not
        // the service's code.
        .testTarget(
            name: "TokenSwapTests",
            dependencies: [
                "TokenSwap", "TokenSwapFixtures", "TestSupport", "RESPClient",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The sandbox's own behaviour, without sockets.
        .testTarget(
            name: "TokenSwapSandboxTests",
            dependencies: [
                "TokenSwapSandbox", "TokenSwap", "TokenSwapFixtures", "HTTPServer", "TestSupport",
            ]),
        .testTarget(
            name: "TokenSwapClientTests",
            dependencies: ["TokenSwapClient", .product(name: "Crypto", package: "swift-crypto")]),
        // Real sockets and real deadlines, one folder per component; the suites that
        // measure time are serialized and run alone (TestSupport's ResourceClass).
        // Fixtures (the provider stub, the PKI script) run from the tree (Tests/Fixtures).
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Transport", "TLS", "ClientStream", "HTTPCore", "HTTPServer", "HTTPClient",
                "RESPClient", "Sealing",
                "TokenSwap",
                "TokenSwapSandbox", "TokenSwapFixtures", "TokenSwapClient", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Processes: drives the real `tokenswap` binary as a child process over real
        // sockets, against its sandbox and a separate stub provider process (Fixtures, run
        // from the tree), and the child-process support itself.
        // TokenSwapClient: the client kit against the real binary, as an app would use it.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "HTTPCore", "TestSupport", "TokenSwapClient",
                // Signs the DPoP proofs sent to the real binary (CONTRACT §13).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
