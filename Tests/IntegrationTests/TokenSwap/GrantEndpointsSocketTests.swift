import HTTPClient
import HTTPCore
import HTTPServer
import Sealing
import TestSupport
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures
@testable import TokenSwapSandbox

/// The handlers behind the real HTTP server, calling the sandbox through the real HTTP
/// client over loopback sockets: the production path except TLS.
@Suite(.serialized, .resourceClass(.deadlines)) struct GrantEndpointsSocketTests {
    typealias F = GrantEndpointsFixtures

    /// A running provider (the sandbox over HTTP) and a running tokenswap in front of it.
    struct Stack {
        let providerServer: HTTPServer
        let frontServer: HTTPServer
        let client: HTTPClient
        let providerOrigin: Origin
        let frontOrigin: Origin

        func stop() async {
            await frontServer.shutdown(drainDeadlineSeconds: 1)
            await providerServer.shutdown(drainDeadlineSeconds: 1)
            client.shutdown()
        }

        func post(_ path: String, _ body: String) async throws -> HTTPResponse {
            try await client.send(
                HTTPClientRequest(
                    method: .post, origin: frontOrigin, target: path,
                    headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                    body: Array(body.utf8)),
                timeoutSeconds: 30)
        }

        func authorizeCode() async throws -> String {
            let response = try await client.send(
                HTTPClientRequest(
                    method: .get, origin: providerOrigin,
                    target: "/sandbox/authorize?redirect_uri=myapp%3A%2F%2Fcallback&state=st"),
                timeoutSeconds: 30)
            #expect(response.status.code == 302)
            return try #require(try GrantEndpointsSocketTests.redirectParameters(response)["code"])
        }
    }

    /// The routes as the service serves them: through the request pipeline.
    static func router(_ routes: [ServiceRoute]) -> Router {
        Router(routes.map(RequestPipeline(logger: LogCapture().logger).wrap))
    }

    static func stack(
        limits: SandboxLimits = SandboxLimits(), timeoutSeconds: Double = 30,
        tokenURL: ((UInt16) -> String)? = nil
    ) async throws -> Stack {
        let template = try F.provider()
        let sandbox = SandboxProvider(
            providers: [template], defaultProvider: template, limits: limits)
        let providerServer = HTTPServer(router: router(sandbox.routes))
        let providerAddress = try providerServer.start(host: "127.0.0.1", port: 0)
        let url =
            tokenURL?(providerAddress.port)
            ?? "http://127.0.0.1:\(providerAddress.port)/sandbox/token"
        let provider = Provider(
            name: template.name, preset: template.preset, tokenURL: try UpstreamURL(url),
            clientID: template.clientID, clientSecret: template.clientSecret,
            authMethod: template.authMethod,
            redirectURI: template.redirectURI, allowedRedirectURIs: template.allowedRedirectURIs)
        let client = try HTTPClient()
        let service = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: client,
            upstreamTimeoutSeconds: timeoutSeconds,
            logger: LogCapture().logger)
        let frontServer = HTTPServer(
            router: router(service.routes(providers: [provider], defaultProvider: provider)))
        let frontAddress = try frontServer.start(host: "127.0.0.1", port: 0)
        return Stack(
            providerServer: providerServer, frontServer: frontServer, client: client,
            providerOrigin: Origin(scheme: .http, host: "127.0.0.1", port: providerAddress.port),
            frontOrigin: Origin(scheme: .http, host: "127.0.0.1", port: frontAddress.port))
    }

    @Test func authorizeSwapRefreshOverSockets() async throws {
        let stack = try await Self.stack()
        let code = try await stack.authorizeCode()
        let swap = try await stack.post(
            "/v1/swap", "code=\(code)&redirect_uri=myapp%3A%2F%2Fcallback")
        #expect(swap.status.code == 200)
        #expect(swap.headers["Cache-Control"] == "no-store")
        let sealed = try #require(try F.body(swap)["refresh_token"]?.stringValue)

        let refresh = try await stack.post("/refresh", "refresh_token=\(sealed)")
        #expect(refresh.status.code == 200)
        let rotated = try #require(try F.body(refresh)["refresh_token"]?.stringValue)
        #expect(rotated != sealed)

        // The sandbox rotated the first token away, but a retry with it within the replay
        // window gets the same answer, not the provider's invalid_grant (CONTRACT §12).
        let replay = try await stack.post("/v1/refresh", "refresh_token=\(sealed)")
        #expect(replay.status.code == 200)
        #expect(try F.body(replay)["refresh_token"]?.stringValue == rotated)
        #expect(
            try F.body(replay)["access_token"] == (try F.body(refresh)["access_token"]))

        let unknown = try await stack.post("/v1/acme/swap", "code=\(code)")
        #expect(unknown.status.code == 404)
        await stack.stop()
    }

    @Test func closedProviderPortIsUpstreamUnreachable() async throws {
        // Bind a port, then close it: nothing listens there afterwards.
        let probe = HTTPServer(router: Router())
        let closedPort = try probe.start(host: "127.0.0.1", port: 0).port
        await probe.shutdown(drainDeadlineSeconds: 0)
        let stack = try await Self.stack(tokenURL: { _ in "http://127.0.0.1:\(closedPort)/token" })
        let response = try await stack.post("/v1/swap", "code=anything")
        #expect(response.status.code == 502)
        #expect(try F.body(response)["error"]?.stringValue == "upstream_unreachable")
        await stack.stop()
    }

    @Test func slowProviderIsUpstreamTimeout() async throws {
        var limits = SandboxLimits()
        // An answer far later than the deadline (a minute): the 504 can only be the deadline's.
        limits.slowAnswerSeconds = 60
        let stack = try await Self.stack(limits: limits, timeoutSeconds: 0.3)
        let started = ContinuousClock.now
        let response = try await stack.post("/v1/swap", "code=sandbox-slow")
        #expect(response.status.code == 504)
        #expect(try F.body(response)["error"]?.stringValue == "upstream_timeout")
        #expect(ContinuousClock.now - started < .seconds(30))
        await stack.stop()
    }

    @Test func providerThrottlingKeepsRetryAfterOverSockets() async throws {
        let stack = try await Self.stack()
        let response = try await stack.post("/v1/swap", "code=sandbox-429")
        #expect(response.status.code == 429)
        #expect(response.headers["Retry-After"] == "7")
        #expect(try F.body(response)["error"]?.stringValue == "temporarily_unavailable")
        await stack.stop()
    }
}

extension GrantEndpointsSocketTests {
    /// The query parameters of a redirect's `Location`.
    static func redirectParameters(_ response: HTTPResponse) throws -> [String: String] {
        let location = try #require(response.headers["Location"])
        let query = location.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var parameters: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(query.utf8) { parameters[name] = value }
        return parameters
    }
}
