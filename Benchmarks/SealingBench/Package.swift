// swift-tools-version: 6.2
import PackageDescription

// Seal+open throughput of the Sealing target, built -c release, kept out of the root
// package's `swift build`. The root package exports no Sealing product, so the two
// targets are the root's own source folders reached through symlinks
// (Sources/COpenSSL -> ../../../Sources/COpenSSL, Sources/Sealing -> …): the code
// measured is exactly the code shipped, compiled with the same settings.
let package = Package(
    name: "SealingBench",
    targets: [
        .target(
            name: "COpenSSL",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(name: "Sealing", dependencies: ["COpenSSL"]),
        .executableTarget(name: "SealingBench", dependencies: ["Sealing"]),
    ],
    swiftLanguageModes: [.v6]
)
