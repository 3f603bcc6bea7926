import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// `TOKENSWAP_<NAME>_DPOP`, `TOKENSWAP_DPOP_MAX_AGE_SECONDS`, `TOKENSWAP_DPOP_NONCE`
/// (CONTRACT §13).
@Suite struct DPoPSettingsTests {
    typealias F = ConfigurationFixtures

    @Test func defaultsAreOptionalSixtySecondsAndNonces() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(config.defaultProvider.dpopMode == .optional)
        #expect(config.dpop.maxAgeSeconds == 60)
        #expect(config.dpop.noncesRequired)
        #expect(config.dpop.proofIDs == 100_000)
    }

    @Test func everyVariableIsRead() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_SPOTIFY_DPOP"] = "required"
        env["TOKENSWAP_DPOP_MAX_AGE_SECONDS"] = "30"
        env["TOKENSWAP_DPOP_NONCE"] = "off"
        env["TOKENSWAP_DPOP_PROOF_IDS"] = "16"
        let config = try await F.load(env)
        #expect(config.defaultProvider.dpopMode == .required)
        #expect(config.dpop.maxAgeSeconds == 30)
        #expect(!config.dpop.noncesRequired)
        #expect(config.dpop.proofIDs == 16)
        env["TOKENSWAP_SPOTIFY_DPOP"] = "off"
        #expect(try await F.load(env).defaultProvider.dpopMode == .off)
    }

    @Test(arguments: [
        ("TOKENSWAP_SPOTIFY_DPOP", "yes"), ("TOKENSWAP_SPOTIFY_DPOP", "Required"),
        ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "0"), ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "601"),
        ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "-1"), ("TOKENSWAP_DPOP_MAX_AGE_SECONDS", "1e9"),
        ("TOKENSWAP_DPOP_NONCE", "true"), ("TOKENSWAP_DPOP_PROOF_IDS", "15"),
        ("TOKENSWAP_DPOP_PROOF_IDS", "0"), ("TOKENSWAP_DPOP_PROOF_IDS", "10000001"),
        ("TOKENSWAP_DPOP_PROOF_IDS", "-1"), ("TOKENSWAP_DPOP_PROOF_IDS", "99999999999999999999"),
    ])
    func badValuesStopStartUpNamingTheVariable(_ setting: (String, String)) async throws {
        var env = F.minimalEnvironment()
        env[setting.0] = setting.1
        let error = await F.error(env)
        #expect(error?.variable == setting.0)
    }
}
