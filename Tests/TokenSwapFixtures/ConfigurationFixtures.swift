import Foundation

@testable import TokenSwap

/// Environments and files for configuration tests. Every test passes its own dictionary,
/// so parallel tests never share the process environment.
enum ConfigurationFixtures {
    /// A valid single-provider (spotify) environment.
    static func minimalEnvironment() -> [String: String] {
        [
            "TOKENSWAP_CLIENT_ID": "client-id-1",
            "TOKENSWAP_CLIENT_SECRET": secret,
            "TOKENSWAP_REDIRECT_URI": "myapp://callback",
            "TOKENSWAP_ENCRYPTION_KEYS": keyRingText,
        ]
    }

    /// Distinctive enough that finding it in any output is a leak, never a coincidence.
    static let secret = "S3CRET-value-never-printed-9f1c"
    /// A fixed test-only key (bytes 0...31), so tests do not depend on the random source.
    static let keyRingText = "t1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"

    static func load(
        _ environment: [String: String], file: String? = nil, sandbox: Bool = false
    ) async throws(ConfigurationError) -> ServiceConfiguration {
        try await ServiceConfiguration.load(
            environment: environment, configFile: file, sandbox: sandbox)
    }

    /// The error a load ends with, or nil when it succeeds.
    static func error(
        _ environment: [String: String], file: String? = nil, sandbox: Bool = false
    ) async -> ConfigurationError? {
        do {
            _ = try await load(environment, file: file, sandbox: sandbox)
            return nil
        } catch {
            return error
        }
    }

    /// Writes `json` to a fresh file in the temporary directory and returns its path.
    static func writeFile(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tokenswap-config-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
