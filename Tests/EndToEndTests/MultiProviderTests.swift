import Foundation
import Testing

/// `TOKENSWAP_PROVIDERS`: each provider at /v1/<name>/swap|refresh with its own token URL
/// and credentials; the first is the default; tokens are bound to their provider.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct MultiProviderTests {
    @Test func routesPerProvider() async throws {
        let stub = try await ProviderStub.start()
        let spotifySecret = "secret-sp-" + Deployment.random(16)
        let acmeSecret = "secret-acme-" + Deployment.random(16)
        let keys = Deployment.newKey("m1")
        let environment = [
            "TOKENSWAP_PROVIDERS": "spotify,acme",
            "TOKENSWAP_CLIENT_ID": "sp-client", "TOKENSWAP_CLIENT_SECRET": spotifySecret,
            "TOKENSWAP_REDIRECT_URI": "myapp://sp",
            "TOKENSWAP_TOKEN_URL": stub.tokenURL("/spotify"),
            "TOKENSWAP_ACME_CLIENT_ID": "acme-client", "TOKENSWAP_ACME_CLIENT_SECRET": acmeSecret,
            "TOKENSWAP_ACME_REDIRECT_URI": "myapp://acme",
            "TOKENSWAP_ACME_TOKEN_URL": stub.tokenURL("/acme/token"),
            "TOKENSWAP_ACME_AUTH": "client_secret_basic",
            "TOKENSWAP_ENCRYPTION_KEYS": keys,
        ]
        let server = try await TokenSwapProcess.serve(environment: environment)
        let defaultSwap = try await Exchange.form("/v1/swap", port: server.port, [("code", "c1")])
        let namedSwap = try await Exchange.form(
            "/v1/spotify/swap", port: server.port, [("code", "c2")])
        let acmeSwap = try await Exchange.form(
            "/v1/acme/swap", port: server.port, [("code", "c3")])
        for answer in [defaultSwap, namedSwap, acmeSwap] { #expect(answer.status == 200) }
        let acmeSealed = try #require(acmeSwap.string("refresh_token"))
        let spotifySealed = try #require(defaultSwap.string("refresh_token"))

        let acmeRefresh = try await Exchange.form(
            "/v1/acme/refresh", port: server.port, [("refresh_token", acmeSealed)])
        #expect(acmeRefresh.status == 200)
        // Sealed for acme, it does not open for spotify, and the other way round.
        let crossed = try await Exchange.form(
            "/v1/refresh", port: server.port, [("refresh_token", acmeSealed)])
        #expect(crossed.error == "invalid_grant")
        let crossedBack = try await Exchange.form(
            "/v1/acme/refresh", port: server.port, [("refresh_token", spotifySealed)])
        #expect(crossedBack.error == "invalid_grant")
        let unknown = try await Exchange.form(
            "/v1/other/swap", port: server.port, [("code", "c4")])
        #expect(unknown.status == 404)
        #expect(unknown.error == "not_found")

        let received = try await stub.received()
        #expect(received.map(\.target) == ["/spotify", "/spotify", "/acme/token", "/acme/token"])
        #expect(
            received[0].header("Authorization")
                == UpstreamRequestTests.basic("sp-client", spotifySecret))
        #expect(
            received[2].header("Authorization")
                == UpstreamRequestTests.basic("acme-client", acmeSecret))
        #expect(received[2].form["redirect_uri"] == "myapp://acme")
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output, stub.errorOutput],
            [spotifySecret, acmeSecret, "stub-refresh", "stub-access", acmeSealed, spotifySealed]
                + Deployment.keyMaterial(keys))
    }
}
