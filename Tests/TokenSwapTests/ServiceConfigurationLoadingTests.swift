import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct ServiceConfigurationLoadingTests {
    typealias F = ConfigurationFixtures

    @Test func defaultsApplyWhenOnlyRequiredSettingsAreGiven() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(config.host == "0.0.0.0")
        #expect(config.port == 8080)
        #expect(config.logLevel == .info)
        #expect(config.logFormat == .text)
        #expect(config.upstreamTimeoutSeconds == 10)
        #expect(config.adminPort == nil)
        #expect(config.adminHost == nil)
        #expect(config.rateLimitPerSecond == 0)
        #expect(config.trustedProxies.isEmpty)
        #expect(config.corsOrigins.isEmpty)
        #expect(config.caFile == nil)
        #expect(config.sandbox == false)
        #expect(config.providers.map(\.name) == ["spotify"])
        #expect(config.defaultProvider.tokenURL.origin.host == "accounts.spotify.com")
        #expect(config.defaultProvider.authMethod == .clientSecretBasic)
    }

    @Test func everyServiceVariableIsRead() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_HOST"] = "127.0.0.1"
        env["TOKENSWAP_PORT"] = "9000"
        env["TOKENSWAP_CA_FILE"] = "/etc/hostname"
        env["TOKENSWAP_LOG_LEVEL"] = "debug"
        env["TOKENSWAP_LOG_FORMAT"] = "json"
        env["TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS"] = "2.5"
        env["TOKENSWAP_ADMIN_PORT"] = "9001"
        env["TOKENSWAP_ADMIN_HOST"] = "127.0.0.2"
        env["TOKENSWAP_RATE_LIMIT"] = "3"
        env["TOKENSWAP_RATE_LIMIT_BURST"] = "7"
        env["TOKENSWAP_TRUSTED_PROXIES"] = "10.0.0.0/8, ::1"
        env["TOKENSWAP_CORS_ORIGINS"] = "https://a.example,http://localhost:3000"
        env["TOKENSWAP_TOKEN_URL"] = "https://auth.example/token"
        env["TOKENSWAP_REDIRECT_URIS"] = "myapp://other,https://x.example/cb"
        let config = try await F.load(env)
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 9000)
        #expect(config.caFile == "/etc/hostname")
        #expect(config.logLevel == .debug)
        #expect(config.logFormat == .json)
        #expect(config.upstreamTimeoutSeconds == 2.5)
        #expect(config.adminPort == 9001)
        #expect(config.adminHost == "127.0.0.2")
        #expect(config.rateLimitPerSecond == 3)
        #expect(config.rateLimitBurst == 7)
        #expect(config.trustedProxies == ["10.0.0.0/8", "::1"])
        #expect(config.corsOrigins == ["https://a.example", "http://localhost:3000"])
        let provider = config.defaultProvider
        #expect(provider.tokenURL.origin.host == "auth.example")
        #expect(provider.tokenURL.target == "/token")
        #expect(provider.clientID == "client-id-1")
        #expect(provider.clientSecret.revealed == F.secret)
        #expect(provider.redirectURI == "myapp://callback")
        #expect(provider.allowedRedirectURIs == ["myapp://other", "https://x.example/cb"])
    }

    @Test func ipv6PrefixDefaultsToSlash64AndIsConfigurable() async throws {
        var env = F.minimalEnvironment()
        #expect(try await F.load(env).rateLimitIPv6PrefixLength == 64)
        env["TOKENSWAP_RATE_LIMIT_IPV6_PREFIX"] = "56"
        #expect(try await F.load(env).rateLimitIPv6PrefixLength == 56)
    }

    @Test func ephemeralKeysOnlyWhenTheSandboxMadeThem() async throws {
        #expect(try await F.load(F.minimalEnvironment(), sandbox: true).ephemeralKeys == false)
        var env = F.minimalEnvironment()
        env["TOKENSWAP_ENCRYPTION_KEYS"] = nil
        #expect(try await F.load(env, sandbox: true).ephemeralKeys == true)
    }

    @Test func burstDefaultsToTheRateRoundedUp() async throws {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_RATE_LIMIT"] = "2.5"
        #expect(try await F.load(env).rateLimitBurst == 3)
    }

    @Test(arguments: [
        ("TOKENSWAP_PORT", "http", "TOKENSWAP_PORT: expected an integer"),
        ("TOKENSWAP_PORT", "70000", "TOKENSWAP_PORT: expected a port, 0 to 65535"),
        ("TOKENSWAP_ADMIN_PORT", "-1", "TOKENSWAP_ADMIN_PORT: expected a port, 0 to 65535"),
        (
            "TOKENSWAP_ADMIN_PORT", "8080",
            "TOKENSWAP_ADMIN_PORT: expected a port other than TOKENSWAP_PORT"
        ),
        (
            "TOKENSWAP_LOG_LEVEL", "loud",
            "TOKENSWAP_LOG_LEVEL: expected debug, info, warning or error"
        ),
        ("TOKENSWAP_LOG_FORMAT", "xml", "TOKENSWAP_LOG_FORMAT: expected text or json"),
        (
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", "0",
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS: expected seconds from 0.001 to 300"
        ),
        (
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", "1e-300",
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS: expected seconds from 0.001 to 300"
        ),
        (
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS", "soon",
            "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS: expected a number"
        ),
        (
            "TOKENSWAP_RATE_LIMIT", "-1",
            "TOKENSWAP_RATE_LIMIT: expected requests per second, 0 (off) or 0.001 to 1000000"
        ),
        // 1e19 trapped in Int(_:) (the burst's default); 1e-19 made Retry-After 10^19 s.
        (
            "TOKENSWAP_RATE_LIMIT", "1e19",
            "TOKENSWAP_RATE_LIMIT: expected requests per second, 0 (off) or 0.001 to 1000000"
        ),
        (
            "TOKENSWAP_RATE_LIMIT", "1e-19",
            "TOKENSWAP_RATE_LIMIT: expected requests per second, 0 (off) or 0.001 to 1000000"
        ),
        (
            "TOKENSWAP_DEVICE_RATE_LIMIT", "-1",
            "TOKENSWAP_DEVICE_RATE_LIMIT: expected requests per minute, 0 or more"
        ),
        (
            "TOKENSWAP_DEVICE_RATE_LIMIT", "ten",
            "TOKENSWAP_DEVICE_RATE_LIMIT: expected a number"
        ),
        (
            "TOKENSWAP_RATE_LIMIT_BURST", "0",
            "TOKENSWAP_RATE_LIMIT_BURST: expected a whole number of requests from 1 to 1000000"
        ),
        (
            "TOKENSWAP_RATE_LIMIT_BURST", "999999999999999999",
            "TOKENSWAP_RATE_LIMIT_BURST: expected a whole number of requests from 1 to 1000000"
        ),
        (
            "TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT", "1024",
            "TOKENSWAP_MAX_BODY_BYTES_IN_FLIGHT: expected bytes from 65536 to 1073741824"
        ),
        (
            "TOKENSWAP_MAX_CONNECTIONS_PER_CLIENT", "-1",
            "TOKENSWAP_MAX_CONNECTIONS_PER_CLIENT: expected a whole number of connections, 0 (no cap) or 1 to 1000000"
        ),
        (
            "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX", "16",
            "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX: expected an IPv6 prefix length from 32 to 128"
        ),
        (
            "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX", "129",
            "TOKENSWAP_RATE_LIMIT_IPV6_PREFIX: expected an IPv6 prefix length from 32 to 128"
        ),
        (
            "TOKENSWAP_TRUSTED_PROXIES", "10.0.0.0/33",
            "TOKENSWAP_TRUSTED_PROXIES: expected comma-separated IP addresses or CIDRs"
        ),
        (
            "TOKENSWAP_TRUSTED_PROXIES", "proxy.local",
            "TOKENSWAP_TRUSTED_PROXIES: expected comma-separated IP addresses or CIDRs"
        ),
        (
            "TOKENSWAP_CORS_ORIGINS", "https://a.example/path",
            "TOKENSWAP_CORS_ORIGINS: expected comma-separated origins (scheme://host[:port]) or *"
        ),
        (
            "TOKENSWAP_CA_FILE", "/nonexistent/ca.pem",
            "TOKENSWAP_CA_FILE: expected a readable PEM file"
        ),
        (
            "TOKENSWAP_TOKEN_URL", "ftp://x/token",
            "TOKENSWAP_TOKEN_URL: expected an http:// or https:// URL"
        ),
        (
            "TOKENSWAP_REDIRECT_URI", "no scheme",
            "TOKENSWAP_REDIRECT_URI: expected an absolute URI without a fragment"
        ),
        (
            "TOKENSWAP_REDIRECT_URIS", "myapp://a,https://b#frag",
            "TOKENSWAP_REDIRECT_URIS: expected comma-separated absolute URIs without fragments"
        ),
        (
            "TOKENSWAP_ENCRYPTION_KEYS", "k1:c2hvcnQ",
            "TOKENSWAP_ENCRYPTION_KEYS: expected kid:key[,kid:key...] with 32-byte base64url keys (key ring entry 1 (kid 'k1'): key is 5 bytes, expected 32)"
        ),
        (
            "TOKENSWAP_CLIENT_ID", "a\u{1}b",
            "TOKENSWAP_CLIENT_ID: expected a client id without control characters"
        ),
    ])
    func invalidSettingNamesItsVariable(variable: String, value: String, line: String) async {
        var env = F.minimalEnvironment()
        env[variable] = value
        let error = await F.error(env)
        #expect(error?.description == line)
    }

    @Test(arguments: [
        "TOKENSWAP_CLIENT_ID", "TOKENSWAP_CLIENT_SECRET", "TOKENSWAP_REDIRECT_URI",
        "TOKENSWAP_ENCRYPTION_KEYS",
    ])
    func missingRequiredSettingIsNamed(variable: String) async {
        var env = F.minimalEnvironment()
        env[variable] = nil
        #expect(await F.error(env) == ConfigurationError(variable: variable, problem: .missing))
    }

    @Test func emptyVariableCountsAsUnset() async {
        var env = F.minimalEnvironment()
        env["TOKENSWAP_CLIENT_SECRET"] = ""
        #expect(
            await F.error(env)
                == ConfigurationError(variable: "TOKENSWAP_CLIENT_SECRET", problem: .missing))
    }

    @Test func sandboxNeedsNoCredentialsNorKeys() async throws {
        let config = try await F.load([:], sandbox: true)
        #expect(config.sandbox)
        #expect(
            config.defaultProvider.clientID
                == ConfigurationDefaults.sandboxClientID(provider: "spotify"))
        #expect(config.defaultProvider.redirectURI == ConfigurationDefaults.sandboxRedirectURI)
        #expect(config.defaultProvider.clientSecret.revealed.count == 32)
        #expect(config.keyRing.keyIDs.count == 1)
    }

    @Test func sandboxSecretsDifferPerLoad() async throws {
        let a = try await F.load([:], sandbox: true)
        let b = try await F.load([:], sandbox: true)
        #expect(a.defaultProvider.clientSecret != b.defaultProvider.clientSecret)
    }

    @Test func noErrorLineContainsASecretValue() async {
        // Each secret is set to something malformed or paired with a failure elsewhere,
        // and the resulting line must not contain it.
        let badKeys = "kid1:\(F.secret)"
        var env = F.minimalEnvironment()
        env["TOKENSWAP_ENCRYPTION_KEYS"] = badKeys
        let keysError = await F.error(env)
        #expect(keysError != nil)
        #expect(keysError?.description.contains(F.secret) == false)

        env = F.minimalEnvironment()
        env["TOKENSWAP_REDIRECT_URI"] = "bad uri"
        let other = await F.error(env)
        #expect(other != nil)
        #expect(other?.description.contains(F.secret) == false)
    }

    @Test func summaryNeverShowsSecrets() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(!config.summary.contains(F.secret))
        #expect(!config.summary.contains(F.keyRingText))
        #expect(!"\(config.defaultProvider)".contains(F.secret))
    }
}
