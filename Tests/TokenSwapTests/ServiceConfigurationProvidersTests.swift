import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct ServiceConfigurationProvidersTests {
    typealias F = ConfigurationFixtures

    static func credentials(_ name: String) -> [String: String] {
        let prefix = "TOKENSWAP_\(name.uppercased().replacingOccurrences(of: "-", with: "_"))_"
        return [
            prefix + "CLIENT_ID": "\(name)-id",
            prefix + "CLIENT_SECRET": F.secret,
            prefix + "REDIRECT_URI": "https://app.example/\(name)",
        ]
    }

    static func environment(_ base: [String: String], adding: [String: String]...) -> [String:
        String]
    {
        adding.reduce(base) { $0.merging($1) { _, new in new } }
    }

    @Test func severalProvidersWithPresetsAndGeneric() async throws {
        let env = Self.environment(
            [
                "TOKENSWAP_PROVIDERS": "spotify,linkedin,my-acme",
                "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
            ],
            adding: Self.credentials("spotify"), Self.credentials("linkedin"),
            Self.credentials("my-acme"),
            [
                "TOKENSWAP_MY_ACME_TOKEN_URL": "https://acme.example/oauth/token",
                "TOKENSWAP_MY_ACME_AUTH": "client_secret_post",
            ])
        let config = try await F.load(env)
        #expect(config.providers.map(\.name) == ["spotify", "linkedin", "my-acme"])
        #expect(config.defaultProvider.name == "spotify")
        let linkedin = try #require(config.provider(named: "linkedin"))
        #expect(linkedin.preset == .linkedin)
        #expect(linkedin.authMethod == .clientSecretPost)
        #expect(linkedin.tokenURL.origin.host == "www.linkedin.com")
        #expect(linkedin.tokenURL.target == "/oauth/v2/accessToken")
        let acme = try #require(config.provider(named: "my-acme"))
        #expect(acme.preset == .generic)
        #expect(acme.clientID == "my-acme-id")
        #expect(acme.authMethod == .clientSecretPost)
        #expect(acme.tokenURL.origin.host == "acme.example")
        #expect(config.provider(named: "other") == nil)
    }

    @Test func defaultProviderVariableChoosesTheDefault() async throws {
        let env = Self.environment(
            [
                "TOKENSWAP_PROVIDERS": "spotify,linkedin", "TOKENSWAP_DEFAULT_PROVIDER": "linkedin",
                "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
            ],
            adding: Self.credentials("spotify"), Self.credentials("linkedin"))
        #expect(try await F.load(env).defaultProvider.name == "linkedin")
    }

    @Test func unprefixedVariablesConfigureTheDefaultProviderOnly() async throws {
        let env = Self.environment(
            [
                "TOKENSWAP_PROVIDERS": "linkedin,spotify",
                "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
                "TOKENSWAP_CLIENT_ID": "unprefixed-id", "TOKENSWAP_CLIENT_SECRET": F.secret,
                "TOKENSWAP_REDIRECT_URI": "myapp://unprefixed",
            ],
            adding: Self.credentials("spotify"))
        let config = try await F.load(env)
        #expect(config.defaultProvider.name == "linkedin")
        #expect(config.defaultProvider.clientID == "unprefixed-id")
        #expect(config.provider(named: "spotify")?.clientID == "spotify-id")
    }

    @Test func prefixedBeatsUnprefixedForTheDefaultProvider() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_SPOTIFY_CLIENT_ID"] = "prefixed-id"
        env["TOKENSWAP_SPOTIFY_TOKEN_URL"] = "https://prefixed.example/token"
        env["TOKENSWAP_TOKEN_URL"] = "https://unprefixed.example/token"
        let config = try await F.load(env)
        #expect(config.defaultProvider.clientID == "prefixed-id")
        #expect(config.defaultProvider.tokenURL.origin.host == "prefixed.example")
    }

    @Test func prefixedSpotifyVariablesWorkWithoutTheProvidersList() async throws {
        let env = Self.environment(
            ["TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText], adding: Self.credentials("spotify"))
        let config = try await F.load(env)
        #expect(config.defaultProvider.name == "spotify")
        #expect(config.defaultProvider.clientID == "spotify-id")
    }

    @Test func presetVariableOverridesTheNameImpliedPreset() async throws {
        let env = Self.environment(
            [
                "TOKENSWAP_PROVIDERS": "work", "TOKENSWAP_WORK_PRESET": "linkedin",
                "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
            ],
            adding: Self.credentials("work"))
        let provider = try await F.load(env).defaultProvider
        #expect(provider.preset == .linkedin)
        #expect(provider.authMethod == .clientSecretPost)
    }

    @Test(
        arguments: [
            (
                ["TOKENSWAP_PROVIDERS": "Spotify"],
                "TOKENSWAP_PROVIDERS: expected comma-separated provider names matching [a-z0-9-]{1,32}"
            ),
            (
                ["TOKENSWAP_PROVIDERS": String(repeating: "a", count: 33)],
                "TOKENSWAP_PROVIDERS: expected comma-separated provider names matching [a-z0-9-]{1,32}"
            ),
            (
                ["TOKENSWAP_PROVIDERS": "a_b"],
                "TOKENSWAP_PROVIDERS: expected comma-separated provider names matching [a-z0-9-]{1,32}"
            ),
            (
                ["TOKENSWAP_PROVIDERS": " , "],
                "TOKENSWAP_PROVIDERS: expected comma-separated provider names matching [a-z0-9-]{1,32}"
            ),
            (
                ["TOKENSWAP_PROVIDERS": "spotify,spotify"],
                "TOKENSWAP_PROVIDERS: expected each provider name once"
            ),
            (
                ["TOKENSWAP_DEFAULT_PROVIDER": "linkedin"],
                "TOKENSWAP_DEFAULT_PROVIDER: expected one of the names in TOKENSWAP_PROVIDERS"
            ),
            (
                ["TOKENSWAP_SPOTIFY_PRESET": "facebook"],
                "TOKENSWAP_SPOTIFY_PRESET: expected spotify, linkedin, google, github, l2p or generic"
            ),
            (
                ["TOKENSWAP_SPOTIFY_AUTH": "private_key_jwt"],
                "TOKENSWAP_SPOTIFY_AUTH: expected client_secret_basic, client_secret_post or none"
            ),
        ] as [([String: String], String)])
    func invalidProviderSettingNamesItsVariable(extra: [String: String], line: String) async {
        let env = F.minimalEnvironment().merging(extra) { _, new in new }
        #expect(await F.error(env)?.description == line)
    }

    @Test func genericProviderNeedsTokenURLAndAuth() async {
        var env = Self.environment(
            ["TOKENSWAP_PROVIDERS": "spotify,acme", "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText],
            adding: Self.credentials("spotify"), Self.credentials("acme"))
        #expect(
            await F.error(env)
                == ConfigurationError(variable: "TOKENSWAP_ACME_TOKEN_URL", problem: .missing))
        env["TOKENSWAP_ACME_TOKEN_URL"] = "https://acme.example/token"
        #expect(
            await F.error(env)
                == ConfigurationError(variable: "TOKENSWAP_ACME_AUTH", problem: .missing))
        env["TOKENSWAP_ACME_AUTH"] = "client_secret_basic"
        #expect(await F.error(env) == nil)
    }

    @Test func missingCredentialOfANonDefaultProviderNamesThePrefixedVariable() async {
        var env = Self.environment(
            [
                "TOKENSWAP_PROVIDERS": "spotify,linkedin",
                "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
            ],
            adding: Self.credentials("spotify"), Self.credentials("linkedin"))
        env["TOKENSWAP_LINKEDIN_CLIENT_SECRET"] = nil
        #expect(
            await F.error(env)
                == ConfigurationError(
                    variable: "TOKENSWAP_LINKEDIN_CLIENT_SECRET", problem: .missing))
    }
}
