import HTTPClient
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// The device-grant settings of CONTRACT §7–§8: dialect, device endpoint and its client
/// authentication, the scope allow-list, public clients, and the device presets.
@Suite struct ProviderDeviceSettingsTests {
    typealias F = ConfigurationFixtures

    static func environment(_ name: String, _ extra: [String: String]) -> [String: String] {
        let prefix = "TOKENSWAP_\(name.uppercased())_"
        var environment = [
            "TOKENSWAP_PROVIDERS": name,
            "TOKENSWAP_ENCRYPTION_KEYS": F.keyRingText,
            prefix + "CLIENT_ID": "\(name)-id",
            prefix + "REDIRECT_URI": "https://app.example/\(name)",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    @Test func l2pPresetIsAPublicClientInTheL2PDialect() async throws {
        let config = try await F.load(Self.environment("l2p", [:]))
        let provider = config.defaultProvider
        #expect(provider.preset == .l2p)
        #expect(provider.dialect == .l2p)
        #expect(provider.authMethod == ClientAuthMethod.none)
        #expect(provider.clientSecret.revealed.isEmpty)
        #expect(provider.tokenURL.origin.host == "oauth.campus.rwth-aachen.de")
        #expect(provider.tokenURL.target == "/oauth2waitress/oauth2.svc/token")
        let device = try #require(provider.device)
        #expect(device.url.target == "/oauth2waitress/oauth2.svc/code")
        #expect(device.clientAuth == ClientAuthMethod.none)
        #expect(device.allowedScopes == nil)
    }

    @Test func googleWantsTheSecretOnThePollButNotOnTheDeviceRequest() async throws {
        let config = try await F.load(
            Self.environment("google", ["TOKENSWAP_GOOGLE_CLIENT_SECRET": F.secret]))
        let provider = config.defaultProvider
        #expect(provider.dialect == .rfc8628)
        #expect(provider.authMethod == .clientSecretPost)
        #expect(provider.tokenURL.origin.host == "oauth2.googleapis.com")
        let device = try #require(provider.device)
        #expect(device.url.origin.host == "oauth2.googleapis.com")
        #expect(device.url.target == "/device/code")
        #expect(device.clientAuth == ClientAuthMethod.none)
        // The secret is needed for the poll, so it is required (the default provider's
        // missing settings are reported by their unprefixed name, CONTRACT §3).
        let error = await F.error(Self.environment("google", [:]))
        #expect(error?.variable == "TOKENSWAP_CLIENT_SECRET")
    }

    @Test func githubPresetAndEveryURLOverridable() async throws {
        let config = try await F.load(
            Self.environment(
                "github",
                [
                    "TOKENSWAP_GITHUB_CLIENT_SECRET": F.secret,
                    "TOKENSWAP_GITHUB_TOKEN_URL": "https://ghe.example/login/oauth/access_token",
                    "TOKENSWAP_GITHUB_DEVICE_AUTHORIZATION_URL":
                        "https://ghe.example/login/device/code",
                ]))
        let provider = config.defaultProvider
        #expect(provider.preset == .github)
        #expect(provider.tokenURL.origin.host == "ghe.example")
        #expect(provider.device?.url.origin.host == "ghe.example")
        #expect(provider.device?.url.target == "/login/device/code")
        #expect(provider.device?.clientAuth == ClientAuthMethod.none)
        #expect(ProviderPreset.github.tokenURL == "https://github.com/login/oauth/access_token")
        #expect(
            ProviderPreset.github.deviceAuthorizationURL == "https://github.com/login/device/code")
    }

    @Test func genericProviderChoosesDialectAuthAndScopes() async throws {
        let config = try await F.load(
            Self.environment(
                "acme",
                [
                    "TOKENSWAP_ACME_TOKEN_URL": "https://acme.example/token",
                    "TOKENSWAP_ACME_AUTH": "none",
                    "TOKENSWAP_ACME_DIALECT": "l2p",
                    "TOKENSWAP_ACME_DEVICE_AUTHORIZATION_URL": "https://acme.example/device",
                    "TOKENSWAP_ACME_DEVICE_CLIENT_AUTH": "client_secret_basic",
                    "TOKENSWAP_ACME_CLIENT_SECRET": F.secret,
                    "TOKENSWAP_ACME_DEVICE_SCOPES": "read, write:all",
                ]))
        let provider = config.defaultProvider
        #expect(provider.dialect == .l2p)
        #expect(provider.authMethod == ClientAuthMethod.none)
        let device = try #require(provider.device)
        #expect(device.clientAuth == .clientSecretBasic)
        #expect(device.allowedScopes == ["read", "write:all"])
        #expect(device.allows(scope: "read write:all"))
        #expect(device.allows(scope: nil))
        #expect(!device.allows(scope: "read admin"))
    }

    @Test func withoutADeviceEndpointThereIsNoDeviceGrant() async throws {
        let config = try await F.load(F.minimalEnvironment())
        #expect(config.defaultProvider.device == nil)
        #expect(config.defaultProvider.dialect == .rfc8628)
        // The sandbox plays a device endpoint for every provider.
        let sandbox = try await F.load([:], sandbox: true)
        #expect(sandbox.defaultProvider.device != nil)
    }

    @Test(arguments: [
        ("TOKENSWAP_ACME_DIALECT", "oauth1", "TOKENSWAP_ACME_DIALECT"),
        ("TOKENSWAP_ACME_AUTH", "private_key_jwt", "TOKENSWAP_ACME_AUTH"),
        ("TOKENSWAP_ACME_DEVICE_CLIENT_AUTH", "basic", "TOKENSWAP_ACME_DEVICE_CLIENT_AUTH"),
        (
            "TOKENSWAP_ACME_DEVICE_AUTHORIZATION_URL", "ftp://x",
            "TOKENSWAP_ACME_DEVICE_AUTHORIZATION_URL"
        ),
        ("TOKENSWAP_ACME_DEVICE_SCOPES", "read,bad\"scope", "TOKENSWAP_ACME_DEVICE_SCOPES"),
    ])
    func invalidDeviceSettingsNameTheirVariable(_ setting: (String, String, String)) async {
        var extra = [
            "TOKENSWAP_ACME_TOKEN_URL": "https://acme.example/token",
            "TOKENSWAP_ACME_AUTH": "client_secret_post",
            "TOKENSWAP_ACME_CLIENT_SECRET": F.secret,
            "TOKENSWAP_ACME_DEVICE_AUTHORIZATION_URL": "https://acme.example/device",
        ]
        extra[setting.0] = setting.1
        let error = await F.error(Self.environment("acme", extra))
        #expect(error?.variable == setting.2)
    }

    @Test func deviceSettingsWithoutADeviceEndpointAreRefused() async {
        for variable in ["TOKENSWAP_ACME_DEVICE_CLIENT_AUTH", "TOKENSWAP_ACME_DEVICE_SCOPES"] {
            let error = await F.error(
                Self.environment(
                    "acme",
                    [
                        "TOKENSWAP_ACME_TOKEN_URL": "https://acme.example/token",
                        "TOKENSWAP_ACME_AUTH": "none",
                        variable: variable.hasSuffix("AUTH") ? "none" : "read",
                    ]))
            #expect(error?.variable == variable)
        }
    }

    @Test func publicClientNeedsNoSecretUnlessTheDeviceRequestSendsOne() async {
        let base = [
            "TOKENSWAP_ACME_TOKEN_URL": "https://acme.example/token",
            "TOKENSWAP_ACME_AUTH": "none",
            "TOKENSWAP_ACME_DEVICE_AUTHORIZATION_URL": "https://acme.example/device",
        ]
        #expect(await F.error(Self.environment("acme", base)) == nil)
        var withSecretOnDevice = base
        withSecretOnDevice["TOKENSWAP_ACME_DEVICE_CLIENT_AUTH"] = "client_secret_post"
        let error = await F.error(Self.environment("acme", withSecretOnDevice))
        #expect(error?.variable == "TOKENSWAP_CLIENT_SECRET")
    }

    @Test func publicClientTokenRequestCarriesTheIdAndNoSecret() throws {
        let provider = Provider(
            name: "acme", preset: .generic, tokenURL: try UpstreamURL("https://acme.example/t"),
            clientID: "pub-id", clientSecret: Secret(""), authMethod: .none,
            redirectURI: "myapp://cb")
        let request = provider.tokenRequest(for: .refreshToken("raw-refresh"))
        #expect(request.headers["Authorization"] == nil)
        var fields: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(request.body) { fields[name] = value }
        #expect(
            fields == [
                "grant_type": "refresh_token", "refresh_token": "raw-refresh",
                "client_id": "pub-id",
            ])
    }
}
