// swift-tools-version: 6.2
import PackageDescription

// Requests per second through HTTPClient, next to URLSession doing the same requests,
// built -c release and kept out of the root package (URLSession must never be linked
// into the service). The root package exports no HTTPClient product, so the targets are
// the root's own source folders reached through symlinks (Sources/HTTPClient ->
// ../../../Sources/HTTPClient, …): the code measured is exactly the code shipped.
let package = Package(
    name: "ClientBench",
    targets: [
        .target(
            name: "COpenSSL",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(name: "CPosix"),
        .target(name: "HTTPCore"),
        .target(name: "Transport", dependencies: ["CPosix"]),
        .target(name: "HTTPClient", dependencies: ["HTTPCore", "Transport", "COpenSSL"]),
        .executableTarget(name: "ClientBench", dependencies: ["HTTPClient"]),
    ],
    swiftLanguageModes: [.v6]
)
