import HTTPClient
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// The lifecycle settings of CONTRACT §8: the presets' authorize, revocation and
/// introspection endpoints, every one overridable, the sandbox's defaults, `{client_id}`
/// in a URL, and the errors that name their variable.
@Suite struct ProviderLifecycleSettingsTests {
    typealias F = ConfigurationFixtures

    static func lifecycle(_ name: String, _ extra: [String: String] = [:], sandbox: Bool = false)
        async throws -> ProviderLifecycle
    {
        var environment = ProviderDeviceSettingsTests.environment(name, extra)
        environment["TOKENSWAP_\(name.uppercased())_CLIENT_SECRET"] = F.secret
        return try await F.load(environment, sandbox: sandbox).defaultProvider.lifecycle
    }

    static func url(_ url: UpstreamURL?) -> String? {
        url.map { "\($0.origin)\($0.target)" }
    }

    @Test(arguments: [
        ("spotify", RevocationStyle.none, nil as String?, IntrospectionStyle.none, nil as String?),
        ("linkedin", .none, nil, .linkedin, "https://www.linkedin.com/oauth/v2/introspectToken"),
        (
            "google", .google, "https://oauth2.googleapis.com/revoke", .google,
            "https://oauth2.googleapis.com/tokeninfo"
        ),
        (
            "github", .github, "https://api.github.com/applications/github-id/token", .github,
            "https://api.github.com/applications/github-id/token"
        ),
        (
            "l2p", .l2p, "https://oauth.campus.rwth-aachen.de/oauth2waitress/oauth2.svc/token",
            .l2p,
            "https://oauth.campus.rwth-aachen.de/oauth2waitress/oauth2.svc/tokeninfo"
        ),
    ])
    func presetsFillTheirEndpoints(
        name: String, revocation: RevocationStyle, revocationURL: String?,
        introspection: IntrospectionStyle, introspectionURL: String?
    ) async throws {
        let lifecycle = try await Self.lifecycle(name)
        #expect(lifecycle.revocationStyle == revocation)
        #expect(Self.url(lifecycle.revocationURL) == revocationURL)
        #expect(lifecycle.introspectionStyle == introspection)
        #expect(Self.url(lifecycle.introspectionURL) == introspectionURL)
        #expect((lifecycle.authorizeURL == nil) == (name == "l2p"))
    }

    @Test func variablesWinOverThePreset() async throws {
        let lifecycle = try await Self.lifecycle(
            "google",
            [
                "TOKENSWAP_GOOGLE_AUTHORIZE_URL": "https://id.example/authorize",
                "TOKENSWAP_GOOGLE_REVOCATION_URL": "https://id.example/revoke/{client_id}",
                "TOKENSWAP_GOOGLE_INTROSPECTION_STYLE": "none",
            ])
        #expect(lifecycle.authorizeURL == "https://id.example/authorize")
        #expect(lifecycle.revocationStyle == .google)
        #expect(Self.url(lifecycle.revocationURL) == "https://id.example/revoke/google-id")
        #expect(!lifecycle.introspects)
    }

    /// A URL alone means the RFC style; a style that calls needs a URL.
    @Test func aGenericProviderWithAURLGetsTheRFCStyle() async throws {
        let generic = [
            "TOKENSWAP_ACME_TOKEN_URL": "https://id.example/token",
            "TOKENSWAP_ACME_AUTH": "client_secret_basic",
            "TOKENSWAP_ACME_REVOCATION_URL": "https://id.example/revoke",
            "TOKENSWAP_ACME_INTROSPECTION_URL": "https://id.example/introspect",
        ]
        let lifecycle = try await Self.lifecycle("acme", generic)
        #expect(lifecycle.revocationStyle == .rfc7009)
        #expect(lifecycle.introspectionStyle == .rfc7662)
        #expect(lifecycle.authorizeURL == nil)

        var missing = ProviderDeviceSettingsTests.environment("acme", generic)
        missing["TOKENSWAP_ACME_CLIENT_SECRET"] = F.secret
        missing["TOKENSWAP_ACME_INTROSPECTION_URL"] = nil
        missing["TOKENSWAP_ACME_INTROSPECTION_STYLE"] = "rfc7662"
        let error = await F.error(missing)
        #expect(error?.variable == "TOKENSWAP_ACME_INTROSPECTION_URL")
    }

    @Test func theSandboxPlaysWhatIsNotConfigured() async throws {
        let spotify = try await Self.lifecycle("spotify", sandbox: true)
        #expect(spotify.revocationStyle == .rfc7009)
        #expect(Self.url(spotify.revocationURL) == SandboxDefaults.revocationURL)
        #expect(spotify.introspectionStyle == .rfc7662)
        #expect(Self.url(spotify.introspectionURL) == SandboxDefaults.introspectionURL)
        // The sandbox's authorize endpoint stands in for the provider's.
        #expect(spotify.authorizeURL == nil)

        let l2p = try await Self.lifecycle("l2p", sandbox: true)
        #expect(l2p.revocationStyle == .l2p)
        #expect(l2p.introspectionStyle == .l2p)
        #expect(Self.url(l2p.introspectionURL) == SandboxDefaults.tokenInfoURL)

        let none = try await Self.lifecycle(
            "spotify", ["TOKENSWAP_SPOTIFY_REVOCATION_STYLE": "none"], sandbox: true)
        #expect(!none.revokes)
        #expect(none.introspects)
    }

    @Test(arguments: [
        ("TOKENSWAP_PUBLIC_URL", "https://tokens.example.com/", "https://tokens.example.com"),
        ("TOKENSWAP_PUBLIC_URL", "http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("TOKENSWAP_PUBLIC_URL", "http://localhost:8080/base", "http://localhost:8080/base"),
    ])
    func publicURLs(variable: String, value: String, expected: String) async throws {
        var environment = F.minimalEnvironment()
        environment[variable] = value
        #expect(try await F.load(environment).publicURL == expected)
    }

    @Test(arguments: [
        "http://tokens.example.com", "https://tokens.example.com/?a=1",
        "https://tokens.example.com/#x", "ftp://tokens.example.com", "http://127.0.0.1.evil.com",
    ])
    func publicURLsRefused(value: String) async throws {
        var environment = F.minimalEnvironment()
        environment["TOKENSWAP_PUBLIC_URL"] = value
        #expect(await F.error(environment)?.variable == "TOKENSWAP_PUBLIC_URL")
    }
}
