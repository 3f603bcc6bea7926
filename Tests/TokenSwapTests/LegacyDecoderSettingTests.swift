import Foundation
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// CONTRACT §9's settings: `TOKENSWAP_LEGACY_FAILURE_LIMIT`, one secret file per
/// provider (however its path is spelled), and `check-config`'s warning for the CTR format.
@Suite struct LegacyDecoderSettingTests {
    typealias F = ConfigurationFixtures

    /// A fresh directory with one secret file, `secret`, and a symbolic link to it.
    static func secretDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tokenswap-legacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secret = directory.appendingPathComponent("secret")
        try "old-secret\n".write(to: secret, atomically: true, encoding: .utf8)
        // 0600, as a secret file should be: check-config warns about group- or
        // world-readable ones, which would add a warning the CTR test does not expect.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("link").path, withDestinationPath: "secret")
        return directory
    }

    /// Two providers, `spotify` and `acme`, with the given `_LEGACY` values.
    static func twoProviders(spotify: String, acme: String) -> [String: String] {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_PROVIDERS"] = "spotify,acme"
        env["TOKENSWAP_ACME_CLIENT_ID"] = "acme-client"
        env["TOKENSWAP_ACME_CLIENT_SECRET"] = F.secret
        env["TOKENSWAP_ACME_REDIRECT_URI"] = "myapp://acme"
        env["TOKENSWAP_ACME_TOKEN_URL"] = "https://acme.example/token"
        env["TOKENSWAP_ACME_AUTH"] = "client_secret_post"
        env["TOKENSWAP_SPOTIFY_LEGACY"] = spotify
        env["TOKENSWAP_ACME_LEGACY"] = acme
        return env
    }

    @Test func theFailureLimitDefaultsToTenAndZeroTurnsItOff() async throws {
        let defaults = try await F.load(F.minimalEnvironment())
        #expect(defaults.legacyFailureLimitPerMinute == 10)
        var env = F.minimalEnvironment()
        env["TOKENSWAP_LEGACY_FAILURE_LIMIT"] = "3"
        #expect(try await F.load(env).legacyFailureLimitPerMinute == 3)
        env["TOKENSWAP_LEGACY_FAILURE_LIMIT"] = "0"
        let off = try await F.load(env)
        #expect(off.legacyFailureLimitPerMinute == 0)
        let endpoints = GrantEndpoints(
            configuration: off, transport: RecordingUpstream(), logger: LogCapture().logger)
        #expect(endpoints.legacy.failureLimit == nil)
        let on = GrantEndpoints(
            configuration: defaults, transport: RecordingUpstream(), logger: LogCapture().logger)
        #expect(on.legacy.failureLimit?.limiter.burst == 10)
    }

    @Test func theFailureLimitIsReadFromTheFileToo() async throws {
        let path = try F.writeFile(#"{"legacy_failure_limit":4}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            try await F.load(F.minimalEnvironment(), file: path).legacyFailureLimitPerMinute == 4)
    }

    @Test(arguments: ["-1", "1000001", "9223372036854775807", "ten", "2.5"])
    func anInvalidFailureLimitStopsStartUpNamingIt(_ value: String) async {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_LEGACY_FAILURE_LIMIT"] = value
        let error = await F.error(env)
        #expect(error?.variable == "TOKENSWAP_LEGACY_FAILURE_LIMIT", "\(value)")
    }

    @Test func aSecretFileNamedByTwoProvidersIsRefused() async throws {
        let directory = try Self.secretDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret").path
        let spellings = [
            file, directory.appendingPathComponent("link").path,
            directory.path + "/../" + directory.lastPathComponent + "/./secret",
        ]
        for spelling in spellings {
            let env = Self.twoProviders(
                spotify: "ruby-encrypted-strings:\(file)", acme: "cryptojs-aes:\(spelling)")
            let error = await F.error(env)
            #expect(error?.variable == "TOKENSWAP_ACME_LEGACY", "\(spelling)")
            #expect(error?.description.contains("TOKENSWAP_SPOTIFY_LEGACY") == true)
            #expect(error?.description.contains(directory.path) == false)
        }
        // One provider may name a file twice (two formats of one old service), and two
        // providers may each have their own.
        let other = directory.appendingPathComponent("other")
        try "another-secret".write(to: other, atomically: true, encoding: .utf8)
        let env = Self.twoProviders(
            spotify: "ruby-encrypted-strings:\(file),cryptojs-aes:\(spellings[1])",
            acme: "cryptojs-aes:\(other.path)")
        let config = try await F.load(env)
        #expect(config.providers.map(\.legacyDecoders.count) == [2, 1])
    }

    @Test func checkConfigWarnsForTheCTRFormatOnly() async throws {
        let directory = try Self.secretDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret").path
        var env = F.minimalEnvironment()
        env["TOKENSWAP_SPOTIFY_LEGACY"] = "node-create-cipher-cbc:\(file)"
        #expect(try await F.load(env).warnings.isEmpty)
        env["TOKENSWAP_SPOTIFY_LEGACY"] =
            "node-create-cipher-cbc:\(file),node-create-cipher-ctr:\(file)"
        let warnings = try await F.load(env).warnings
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("TOKENSWAP_SPOTIFY_LEGACY: node-create-cipher-ctr"))
        #expect(warning.contains("malleable") && warning.contains("remove it"))
        #expect(!warning.contains("old-secret"))
    }
}
