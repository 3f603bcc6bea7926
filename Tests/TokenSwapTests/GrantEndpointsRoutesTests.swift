import HTTPCore
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

@Suite struct GrantEndpointsRoutesTests {
    typealias F = GrantEndpointsFixtures

    @Test func routesCoverAliasesAndEveryProvider() async throws {
        let spotify = try F.provider()
        let linkedin = try F.provider(name: "linkedin", auth: .clientSecretPost)
        let service = try F.service(RecordingUpstream())
        let routes = service.routes(providers: [spotify, linkedin], defaultProvider: spotify)
        #expect(
            Set(routes.map(\.path)) == [
                "/v1/swap", "/swap", "/v1/refresh", "/refresh", "/v1/token", "/v1/revoke",
                "/v1/spotify/swap", "/v1/spotify/refresh", "/v1/spotify/token",
                "/v1/spotify/revoke",
                "/v1/linkedin/swap", "/v1/linkedin/refresh", "/v1/linkedin/token",
                "/v1/linkedin/revoke",
            ])
        #expect(routes.allSatisfy { $0.method == .post })
    }

    @Test(arguments: [
        ("/v1/swap", "authorization_code", "spotify"), ("/swap", "authorization_code", "spotify"),
        ("/v1/linkedin/swap", "authorization_code", "linkedin"),
        ("/v1/spotify/swap", "authorization_code", "spotify"),
    ])
    func eachSwapRouteCallsItsProvider(path: String, grant: String, provider: String) async throws {
        let spotify = try F.provider()
        let linkedin = try F.provider(name: "linkedin", auth: .clientSecretPost)
        let upstream = RecordingUpstream(RecordingUpstream.json(200, #"{"access_token":"a"}"#))
        let routes = try F.service(upstream).routes(
            providers: [spotify, linkedin], defaultProvider: spotify)
        let route = try #require(routes.first { $0.path == path })
        let response = await route.answer(F.form("code=c", path: path))
        #expect(response.status.code == 200)
        let sent = try #require(upstream.requests.first)
        #expect(try F.sentFields(sent)["grant_type"] == grant)
        // linkedin uses client_secret_post, spotify basic: the auth tells which provider was called.
        #expect((sent.headers["Authorization"] == nil) == (provider == "linkedin"))
    }

    @Test(arguments: ["/v1/refresh", "/refresh", "/v1/linkedin/refresh"])
    func refreshRoutesOpenWithTheirProvidersContext(path: String) async throws {
        let spotify = try F.provider()
        let linkedin = try F.provider(name: "linkedin", auth: .clientSecretPost)
        let target = path.contains("linkedin") ? linkedin : spotify
        let sealed = try F.seal("raw", keys: F.newKey, provider: target)
        let upstream = RecordingUpstream(RecordingUpstream.json(200, #"{"access_token":"a"}"#))
        let routes = try F.service(upstream).routes(
            providers: [spotify, linkedin], defaultProvider: spotify)
        let response = try await #require(routes.first { $0.path == path }).answer(
            F.form("refresh_token=\(sealed)", path: path))
        #expect(response.status.code == 200)
        #expect(try F.body(response)["refresh_token"]?.stringValue == sealed)
    }
}
