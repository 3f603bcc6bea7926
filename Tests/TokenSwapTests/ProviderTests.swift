import HTTPClient
import Testing

@testable import TokenSwap

@Suite struct ProviderTests {
    static let secret = "provider-secret-7c1e"

    static func provider(allowed: [String] = ["myapp://dev"]) throws -> Provider {
        Provider(
            name: "spotify", preset: .spotify,
            tokenURL: try UpstreamURL("https://accounts.spotify.com/api/token"),
            clientID: "id", clientSecret: Secret(secret), authMethod: .clientSecretBasic,
            redirectURI: "myapp://callback", allowedRedirectURIs: allowed)
    }

    @Test(
        arguments: [
            (nil, "myapp://callback"),
            ("myapp://callback", "myapp://callback"),
            ("myapp://dev", "myapp://dev"),
            ("myapp://evil", "myapp://callback"),
            ("MYAPP://dev", "myapp://callback"),
            ("myapp://dev/", "myapp://callback"),
        ] as [(String?, String)])
    func redirectURIAllowList(requested: String?, sent: String) throws {
        #expect(try Self.provider().redirectURI(forRequested: requested) == sent)
    }

    @Test(arguments: [
        ("spotify", true), ("a", true), ("my-app-2", true),
        (String(repeating: "x", count: 32), true),
        ("", false), (String(repeating: "x", count: 33), false), ("Spotify", false), ("a_b", false),
        ("a.b", false), ("é", false),
    ])
    func names(name: String, valid: Bool) {
        #expect(Provider.isValidName(name) == valid)
    }

    @Test func presetsFillEndpointAndAuth() {
        #expect(ProviderPreset.spotify.tokenURL == "https://accounts.spotify.com/api/token")
        #expect(ProviderPreset.spotify.authMethod == .clientSecretBasic)
        #expect(ProviderPreset.linkedin.tokenURL == "https://www.linkedin.com/oauth/v2/accessToken")
        #expect(ProviderPreset.linkedin.authMethod == .clientSecretPost)
        #expect(ProviderPreset.generic.tokenURL == nil)
        #expect(ProviderPreset.generic.authMethod == nil)
        #expect(ProviderPreset.implied(byName: "linkedin") == .linkedin)
        #expect(ProviderPreset.implied(byName: "acme") == .generic)
    }

    @Test func secretNeverPrints() throws {
        let provider = try Self.provider()
        #expect(!"\(provider)".contains(Self.secret))
        #expect(!String(reflecting: provider).contains(Self.secret))
        #expect("\(provider.clientSecret)" == "<redacted>")
        var dumped = ""
        dump(provider, to: &dumped)
        #expect(!dumped.contains(Self.secret))
        #expect(provider.clientSecret.revealed == Self.secret)
    }
}
