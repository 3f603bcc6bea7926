// swift-tools-version: 6.2
import Foundation
import PackageDescription

// A separate package so the root package never builds the fuzzer (SwiftPM does not look
// inside a folder that has its own Package.swift). A path dependency's identity is its
// folder name, which depends on where the repository is checked out; compute it.
let rootIdentity = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FuzzTesting",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzHTTPCore",
            dependencies: [.product(name: "HTTPCore", package: rootIdentity)]
        )
    ],
    swiftLanguageModes: [.v6]
)
