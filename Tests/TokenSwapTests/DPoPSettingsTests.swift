import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// `TOKENSWAP_<NAME>_DPOP`, `TOKENSWAP_DPOP_MAX_AGE_SECONDS`, `TOKENSWAP_DPOP_NONCE`
/// (CONTRACT §13).
@Suite struct DPoPSettingsTests {
    typealias F = ConfigurationFixtures

    @Test func defaultsAreOptionalSixtySecondsAndNonces() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(config.dpop.mode(for: "spotify") == .optional)
        #expect(config.dpop.maxAgeSeconds == 60)
        #expect(config.dpop.noncesRequired)
    }

    @Test func everyVariableIsRead() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_SPOTIFY_DPOP"] = "required"
        env["TOKENSWAP_DPOP_MAX_AGE_SECONDS"] = "30"
        env["TOKENSWAP_DPOP_NONCE"] = "off"
        let config = try await F.load(env)
        #expect(config.dpop.mode(for: "spotify") == .required)
        #expect(config.dpop.maxAgeSeconds == 30)
        #expect(!config.dpop.noncesRequired)
        env["TOKENSWAP_SPOTIFY_DPOP"] = "off"
        #expect(try await F.load(env).dpop.mode(for: "spotify") == .off)
    }

    @Test(arguments: [
        ("TOKENSWAP_SPOTIFY_DPOP", "yes"), ("TOKENSWAP_SPOTIFY_DPOP", "Required"),
        ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "0"), ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "601"),
        ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "-1"), ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "1e9"),
        ("TOKENSWAP_DPOP_NONCE", "true"),
    ])
    func badValuesStopStartUpNamingTheVariable(_ setting: (String, String)) async throws {
        var env = F.minimalEnvironment()
        env[setting.0] = setting.1
        let error = await F.error(env)
        #expect(error?.variable == setting.0)
    }
}
