import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct ConfigurationSourceTests {
    typealias F = ConfigurationFixtures

    static let fileJSON = """
        {
          "port": 7000,
          "host": "127.0.0.1",
          "providers": ["spotify", "acme"],
          "upstream_timeout_seconds": 3,
          "trusted_proxies": ["10.1.0.0/16"],
          "encryption_keys": "\(F.keyRingText)",
          "spotify": {"client_id": "file-spotify", "client_secret": "\(F.secret)", "redirect_uri": "myapp://file"},
          "acme": {"token_url": "https://acme.example/t", "auth": "client_secret_post",
                   "client_id": "file-acme", "client_secret": "\(F.secret)", "redirect_uri": "https://a.example/cb",
                   "redirect_uris": ["https://a.example/other"]}
        }
        """

    @Test func fileAloneConfiguresEverything() async throws {
        let path = try F.writeFile(Self.fileJSON)
        let config = try await F.load([:], file: path)
        #expect(config.port == 7000)
        #expect(config.host == "127.0.0.1")
        #expect(config.upstreamTimeoutSeconds == 3)
        #expect(config.trustedProxies == ["10.1.0.0/16"])
        #expect(config.providers.map(\.name) == ["spotify", "acme"])
        #expect(config.defaultProvider.clientID == "file-spotify")
        #expect(config.provider(named: "acme")?.allowedRedirectURIs == ["https://a.example/other"])
        #expect(config.provider(named: "acme")?.authMethod == .clientSecretPost)
    }

    @Test func environmentWinsOverTheFile() async throws {
        let path = try F.writeFile(Self.fileJSON)
        let config = try await F.load(
            [
                "TOKENSWAP_PORT": "7100", "TOKENSWAP_ACME_CLIENT_ID": "env-acme",
                "TOKENSWAP_CLIENT_ID": "env-default",
            ],
            file: path)
        #expect(config.port == 7100)
        #expect(config.provider(named: "acme")?.clientID == "env-acme")
        // The file's prefixed spotify.client_id beats the environment's unprefixed one:
        // prefixed-over-unprefixed is decided first, then env over file for that key.
        #expect(config.defaultProvider.clientID == "file-spotify")
    }

    @Test(arguments: [
        (#"{"port": "eighty"}"#, "TOKENSWAP_PORT: expected an integer"),
        (#"{"port": [1]}"#, "TOKENSWAP_PORT: expected an integer"),
        (#"{"port": 80.5}"#, "TOKENSWAP_PORT: expected an integer"),
        (#"{"rate_limit": "fast"}"#, "TOKENSWAP_RATE_LIMIT: expected a number"),
        (#"{"host": 5}"#, "TOKENSWAP_HOST: expected a string"),
        (#"{"providers": 5}"#, "TOKENSWAP_PROVIDERS: expected a comma-separated list"),
        (
            #"{"spotify": {"client_secret": 12345}}"#,
            "TOKENSWAP_SPOTIFY_CLIENT_SECRET: expected a string"
        ),
    ])
    func wrongTypeInTheFileNamesTheSetting(json: String, line: String) async throws {
        let path = try F.writeFile(json)
        #expect(await F.error(F.minimalEnvironment(), file: path)?.description == line)
    }

    @Test func fileAcceptsTheEnvironmentsStringForms() async throws {
        let path = try F.writeFile(
            #"{"port": "7001", "rate_limit": "2.5", "providers": "spotify, linkedin", "linkedin": {"client_id": "l", "client_secret": "s", "redirect_uri": "x:y"}}"#
        )
        let config = try await F.load(F.minimalEnvironment(), file: path)
        #expect(config.port == 7001)
        #expect(config.rateLimitPerSecond == 2.5)
        #expect(config.providers.map(\.name) == ["spotify", "linkedin"])
    }

    // A repeated setting is refused (the service's strict JSONParser reads the file), as
    // is an array mixing strings and numbers.
    @Test(arguments: [
        "{not json", "[1,2]", "", #"{"port": 7001, "port": 7002}"#, #"{"providers": ["a", 1]}"#,
    ])
    func unreadableFileStopsStartUpWithoutQuotingIt(content: String) async throws {
        let path = try F.writeFile(content)
        let error = await F.error(F.minimalEnvironment(), file: path)
        #expect(error?.variable == "--config")
    }

    @Test func missingFileIsAnError() async {
        let error = await F.error(F.minimalEnvironment(), file: "/nonexistent/tokenswap.json")
        #expect(error?.variable == "--config")
    }

    @Test func secretsAreMarkedSecret() {
        #expect(ConfigurationSource.isSecret(environmentName: "TOKENSWAP_CLIENT_SECRET"))
        #expect(ConfigurationSource.isSecret(environmentName: "TOKENSWAP_ACME_CLIENT_SECRET"))
        #expect(ConfigurationSource.isSecret(environmentName: "TOKENSWAP_ENCRYPTION_KEYS"))
        #expect(!ConfigurationSource.isSecret(environmentName: "TOKENSWAP_CLIENT_ID"))
        #expect(ConfigurationSource.isSecret(fileKey: "acme.client_secret"))
        #expect(ConfigurationSource.isSecret(fileKey: "encryption_keys"))
        #expect(!ConfigurationSource.isSecret(fileKey: "acme.client_id"))
    }
}
