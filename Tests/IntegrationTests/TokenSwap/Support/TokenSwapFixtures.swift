import HTTPClient
import HTTPCore
import Logging
import Synchronization

@testable import TokenSwap

// What the product's socket suites need of TokenSwapTests' fixtures (a test target cannot
// import another's sources): the same provider, key and body reader.

/// Providers, key rings and bodies for the socket suites, as in TokenSwapTests.
enum TokenEndpointsFixtures {
    static let newKey = "new:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"

    static func provider(name: String = "spotify", clientID: String = "client-1") throws
        -> Provider
    {
        Provider(
            name: name, preset: .generic,
            tokenURL: try UpstreamURL("https://accounts.example/api/token"),
            clientID: clientID, clientSecret: Secret("S3CRET-value-never-printed-9f1c"),
            authMethod: .clientSecretBasic, redirectURI: "myapp://callback",
            allowedRedirectURIs: ["myapp://dev-callback"])
    }

    static func body(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }
}

enum SandboxFixtures {
    /// The query parameters of the `Location` a 302 points to.
    static func redirectParameters(_ response: HTTPResponse) throws -> [String: String] {
        guard let location = response.headers["Location"] else { return [:] }
        let query = location.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var parameters: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(query.utf8) { parameters[name] = value }
        return parameters
    }
}

/// Collects every log line (message and metadata rendered).
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(capture: self) }
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}
