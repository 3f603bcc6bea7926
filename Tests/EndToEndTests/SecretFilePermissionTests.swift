import Foundation
import Testing

/// CONTRACT §15: `check-config` warns when a file holding a secret can be read by group or
/// others: the TLS key, a legacy secret file, a `--config` file with a client secret or the
/// key ring. Before, a world-readable TLS key passed silently.
@Suite(.resourceClass(.processes)) struct SecretFilePermissionTests {
    static func permissions(_ mode: Int, _ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    static func checkConfig(_ environment: [String: String], config: String? = nil)
        async throws -> (status: Int32, stdout: String, stderr: String)
    {
        try await TokenSwapProcess.run(
            ["check-config", "--sandbox"] + (config.map { ["--config", $0] } ?? []),
            environment: environment)
    }

    @Test func aTLSKeyReadableByOthersIsWarnedAbout() async throws {
        let pair = try await ServedPair.make("good")
        let owner = try await Self.checkConfig(pair.environment)
        #expect(owner.status == 0)
        #expect(!owner.stderr.contains("group or others"), "\(owner.stderr)")
        for (mode, shown) in [(0o644, "0644"), (0o640, "0640"), (0o604, "0604")] {
            try Self.permissions(mode, pair.key)
            let result = try await Self.checkConfig(pair.environment)
            #expect(result.status == 0)
            #expect(
                result.stderr.contains(
                    "warning: TOKENSWAP_TLS_KEY_FILE: \(pair.key) can be read by group or others "
                        + "(mode \(shown))"), "\(result.stderr)")
        }
        // Executable or writable bits alone let no one read it.
        try Self.permissions(0o711, pair.key)
        #expect(!(try await Self.checkConfig(pair.environment)).stderr.contains("group or others"))
    }

    @Test func legacySecretAndConfigFilesReadableByOthersAreWarnedAbout() async throws {
        let files = try LegacyMigrationTests.SecretFiles(formats: ["spotifyapiserver-gcm"]) { _ in
            "old-" + Deployment.random(20)
        }
        defer { files.remove() }
        let secretPath = files.directory.appendingPathComponent("spotifyapiserver-gcm").path
        let environment = ["TOKENSWAP_SPOTIFY_LEGACY": files.setting(["spotifyapiserver-gcm"])]
        try Self.permissions(0o644, secretPath)
        let open = try await Self.checkConfig(environment)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr.contains(
                "warning: TOKENSWAP_SPOTIFY_LEGACY: \(secretPath) can be read by group or others"),
            "\(open.stderr)")
        try Self.permissions(0o600, secretPath)
        #expect(!(try await Self.checkConfig(environment)).stderr.contains("group or others"))

        // A configuration file: only one that holds a secret is one.
        let config = files.directory.appendingPathComponent("config.json").path
        let secret = "secret-" + Deployment.random(20)
        try #"{"spotify":{"client_secret":"\#(secret)"},"log_level":"info"}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        try Self.permissions(0o644, config)
        let withSecret = try await Self.checkConfig([:], config: config)
        #expect(withSecret.status == 0, "\(withSecret.stderr)")
        #expect(
            withSecret.stderr.contains(
                "warning: --config: \(config) can be read by group or others"),
            "\(withSecret.stderr)")
        try #"{"log_level":"info"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        try Self.permissions(0o644, config)
        #expect(
            !(try await Self.checkConfig([:], config: config)).stderr.contains("group or others"))
        for output in [open.stdout, open.stderr, withSecret.stdout, withSecret.stderr] {
            #expect(!output.contains(secret))
            #expect(!output.contains(try #require(files.secrets["spotifyapiserver-gcm"])))
        }
    }
}
