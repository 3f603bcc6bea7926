// swift-tools-version: 6.2
import Foundation
import PackageDescription

// A separate package so the root package never builds the fuzzers (SwiftPM does not look
// inside a folder that has its own Package.swift). A path dependency's identity is its
// folder name, which depends on where the repository is checked out; compute it.
let rootIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// One executable per parser, so each has its own corpus, dictionary and statistics
// (README.md lists what each feeds its input to and what it checks).
let package = Package(
    name: "FuzzTesting",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzHTTPCore",
            dependencies: [.product(name: "HTTPCore", package: rootIdentity)]
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: [
                .product(name: "TokenSwap", package: rootIdentity),
                .product(name: "TokenSwapFuzzing", package: rootIdentity),
            ]
        ),
        .executableTarget(
            name: "FuzzForm",
            dependencies: [
                .product(name: "TokenSwap", package: rootIdentity),
                .product(name: "TokenSwapFuzzing", package: rootIdentity),
                .product(name: "HTTPCore", package: rootIdentity),
            ]
        ),
        .executableTarget(
            name: "FuzzSealed",
            dependencies: [.product(name: "Sealing", package: rootIdentity)]
        ),
        .executableTarget(
            name: "FuzzLegacy",
            dependencies: [.product(name: "TokenSwapFuzzing", package: rootIdentity)]
        ),
        .executableTarget(
            name: "FuzzDeviceCode",
            dependencies: [.product(name: "TokenSwapFuzzing", package: rootIdentity)]
        ),
        .executableTarget(
            name: "FuzzRESP",
            dependencies: [.product(name: "RESPClient", package: rootIdentity)]
        ),
        .executableTarget(
            name: "FuzzDPoP",
            dependencies: [
                .product(name: "TokenSwapFuzzing", package: rootIdentity),
                .product(name: "Sealing", package: rootIdentity),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
