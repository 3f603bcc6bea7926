import Foundation
import Testing

/// The RFC 8414 documents (CONTRACT §8): served per provider only with
/// `TOKENSWAP_PUBLIC_URL`, each endpoint only where the provider supports it.
@Suite(.serialized, .resourceClass(.processes)) struct DiscoveryTests {
    static let publicURL = "https://tokens.example.com"

    static func acme(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "TOKENSWAP_PROVIDERS": "spotify,acme",
            "TOKENSWAP_ACME_CLIENT_ID": "acme-client",
            "TOKENSWAP_ACME_CLIENT_SECRET": "acme-secret-" + Deployment.random(12),
            "TOKENSWAP_ACME_REDIRECT_URI": Deployment.redirectURI,
            "TOKENSWAP_ACME_TOKEN_URL": "https://id.acme.example/oauth/token",
            "TOKENSWAP_ACME_AUTH": "client_secret_post",
            "TOKENSWAP_ACME_AUTHORIZE_URL": "https://id.acme.example/oauth/authorize",
            "TOKENSWAP_ACME_REVOCATION_URL": "https://id.acme.example/oauth/revoke",
            "TOKENSWAP_ACME_INTROSPECTION_URL": "https://id.acme.example/oauth/introspect",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    @Test func documentsPerProviderWithExactlyTheMembersOfTheContract() async throws {
        let stack = try await StubStack.start(
            extra: Self.acme([
                "TOKENSWAP_PUBLIC_URL": Self.publicURL + "/",
                "TOKENSWAP_CORS_ORIGINS": "https://app.example",
                "TOKENSWAP_ACME_DPOP": "off",
            ]))
        let spotify = try await Exchange.request(
            "GET", "/.well-known/oauth-authorization-server/v1/spotify", port: stack.port,
            headers: [("Origin", "https://app.example")])
        #expect(spotify.status == 200)
        // A browser app may read it (TOKENSWAP_CORS_ORIGINS).
        #expect(spotify.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(spotify.header("Content-Type") == "application/json")
        let issuer = Self.publicURL + "/v1/spotify"
        let document = try #require(spotify.json)
        #expect(
            Set(document.keys) == [
                "issuer", "authorization_endpoint", "token_endpoint", "grant_types_supported",
                "response_types_supported", "code_challenge_methods_supported",
                "token_endpoint_auth_methods_supported", "dpop_signing_alg_values_supported",
            ])
        #expect(document["issuer"] as? String == issuer)
        #expect(
            document["authorization_endpoint"] as? String
                == "https://accounts.spotify.com/authorize")
        #expect(document["token_endpoint"] as? String == issuer + "/token")
        #expect(
            document["grant_types_supported"] as? [String] == [
                "authorization_code", "refresh_token",
            ])
        #expect(document["response_types_supported"] as? [String] == ["code"])
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(document["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
        // CONTRACT §13: ES256, unless the provider's DPoP is off.
        #expect(document["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])

        let acme = try #require(
            try await Exchange.request(
                "GET", "/.well-known/oauth-authorization-server/v1/acme", port: stack.port
            ).json)
        let acmeIssuer = Self.publicURL + "/v1/acme"
        #expect(acme["issuer"] as? String == acmeIssuer)
        #expect(
            acme["authorization_endpoint"] as? String == "https://id.acme.example/oauth/authorize")
        #expect(acme["revocation_endpoint"] as? String == acmeIssuer + "/revoke")
        #expect(acme["introspection_endpoint"] as? String == acmeIssuer + "/introspect")
        #expect(acme["dpop_signing_alg_values_supported"] == nil)

        let unknown = try await Exchange.request(
            "GET", "/.well-known/oauth-authorization-server/v1/nobody", port: stack.port)
        #expect(unknown.status == 404)
        #expect(try await stack.finish(secrets: []) == 0)
    }

    @Test func absentWithoutAPublicURL() async throws {
        let stack = try await StubStack.start(extra: Self.acme())
        for name in ["spotify", "acme"] {
            let answer = try await Exchange.request(
                "GET", "/.well-known/oauth-authorization-server/v1/\(name)", port: stack.port)
            #expect(answer.status == 404)
        }
        #expect(try await stack.finish(secrets: []) == 0)
    }

    /// Every wrong lifecycle setting stops start-up with one line naming its variable.
    @Test(arguments: [
        ("TOKENSWAP_PUBLIC_URL", "http://tokens.example.com"),
        ("TOKENSWAP_PUBLIC_URL", "https://tokens.example.com/?x=1"),
        ("TOKENSWAP_PUBLIC_URL", "tokens.example.com"),
        ("TOKENSWAP_ACME_REVOCATION_STYLE", "sometimes"),
        ("TOKENSWAP_ACME_INTROSPECTION_STYLE", "rfc7009"),
        ("TOKENSWAP_ACME_REVOCATION_URL", "ftp://id.acme.example/revoke"),
        ("TOKENSWAP_ACME_AUTHORIZE_URL", "not a url"),
        ("TOKENSWAP_INTROSPECTION_RATE_LIMIT", "-1"),
    ])
    func wrongSettingsNameTheirVariable(variable: String, value: String) async throws {
        var environment = Deployment().environment(
            tokenURL: "https://accounts.example/api/token", keys: Deployment.newKey("A"),
            extra: Self.acme([variable: value]))
        environment[variable] = value
        let result = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains(variable))
    }

    /// A style that calls the provider needs a URL when the preset has none.
    @Test func aStyleWithoutAURLNamesTheURLVariable() async throws {
        var environment = Deployment().environment(
            tokenURL: "https://accounts.example/api/token", keys: Deployment.newKey("A"),
            extra: Self.acme())
        environment["TOKENSWAP_ACME_REVOCATION_URL"] = nil
        environment["TOKENSWAP_ACME_REVOCATION_STYLE"] = "rfc7009"
        let result = try await TokenSwapProcess.run(["check-config"], environment: environment)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("TOKENSWAP_ACME_REVOCATION_URL"))
    }
}
