import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// CONTRACT §14's settings: `TOKENSWAP_REVOCATION_RETENTION_DAYS`, and per provider
/// `_REUSE_DETECTION` and `_REFRESH_TOKEN_LIFETIME_SECONDS`; each refusal names its variable.
@Suite struct GrantFamilySettingsTests {
    typealias F = ConfigurationFixtures

    @Test func defaultsAreOffUnknownAnd190Days() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(config.families.retentionDays == 190)
        #expect(config.families.retention == .seconds(190 * 86_400))
        #expect(config.defaultProvider.familyPolicy == GrantFamilyPolicy())
        #expect(!config.defaultProvider.familyPolicy.reuseDetection)
        #expect(config.defaultProvider.familyPolicy.refreshTokenLifetimeSeconds == 0)
    }

    /// CONTRACT §14: without a store, `check-config` says that revocations live in this
    /// copy's memory and end with it, and how many it keeps: the real cap of the memory
    /// store's table of revocations (the oldest dropped first), not only the retention.
    @Test func checkConfigSaysHowManyRevocationsACopyKeepsAndThatTheyEndWithIt() async throws {
        let config = try await F.load(F.minimalEnvironment())
        let summary = config.revocationsSummary
        #expect(MemoryStateStore().records.capacity == 100_000)
        #expect(summary.contains("at most 100,000"), "\(summary)")
        #expect(summary.contains("oldest dropped first"), "\(summary)")
        #expect(summary.contains("end with it"), "\(summary)")
        #expect(summary.contains("190 days"), "\(summary)")
        #expect(summary.hasPrefix("revocations: in this copy's memory"))
        #expect(summary.contains("a restart forgets them"))

        var shared = F.minimalEnvironment()
        shared["TOKENSWAP_STATE_URL"] = "redis://127.0.0.1:6379/0"
        let withStore = try await F.load(shared).revocationsSummary
        #expect(withStore.hasPrefix("revocations: in the shared store"))
        #expect(withStore.contains("at most 100,000"), "\(withStore)")
    }

    @Test func everyProviderHasItsOwnPolicy() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_PROVIDERS"] = "spotify,acme"
        env["TOKENSWAP_ACME_TOKEN_URL"] = "https://auth.acme.example/token"
        env["TOKENSWAP_ACME_AUTH"] = "client_secret_post"
        env["TOKENSWAP_ACME_CLIENT_ID"] = "acme-id"
        env["TOKENSWAP_ACME_CLIENT_SECRET"] = "acme-secret"
        env["TOKENSWAP_ACME_REDIRECT_URI"] = "myapp://acme"
        env["TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS"] = "15552000"
        env["TOKENSWAP_ACME_REUSE_DETECTION"] = "on"
        env["TOKENSWAP_REVOCATION_RETENTION_DAYS"] = "30"
        let config = try await F.load(env)
        #expect(
            config.defaultProvider.familyPolicy
                == GrantFamilyPolicy(refreshTokenLifetimeSeconds: 15_552_000))
        #expect(
            config.provider(named: "acme")?.familyPolicy == GrantFamilyPolicy(reuseDetection: true))
        #expect(config.families.retentionDays == 30)
    }

    @Test(arguments: [
        ("TOKENSWAP_REVOCATION_RETENTION_DAYS", "0"),
        ("TOKENSWAP_REVOCATION_RETENTION_DAYS", "3651"),
        ("TOKENSWAP_REVOCATION_RETENTION_DAYS", "-1"),
        ("TOKENSWAP_REVOCATION_RETENTION_DAYS", "99999999999999999999"),
        ("TOKENSWAP_SPOTIFY_REUSE_DETECTION", "yes"),
        ("TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS", "-5"),
        ("TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS", "315360001"),
        ("TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS", "6 months"),
    ])
    func outOfRangeOrUnknownValuesStopStartUpNamingTheVariable(variable: String, value: String)
        async
    {
        var env = F.minimalEnvironment()
        env[variable] = value
        #expect(await F.error(env)?.variable == variable)
    }
}
