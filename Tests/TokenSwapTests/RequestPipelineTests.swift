import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// What `RequestPipeline.wrap` adds around an endpoint is the same whether the rate limit
/// is decided in place (in memory) or answered by a shared store.
@Suite struct RequestPipelineTests {
    @Test(arguments: [false, true])
    func aClientOverTheLimitIsAnswered429AndTheEndpointDoesNotRun(countedInStore: Bool)
        async throws
    {
        let logs = LogCapture()
        let metrics = ServiceMetrics()
        var pipeline = RequestPipeline(
            logger: logs.logger, metrics: metrics,
            rateLimiter: RateLimiter(ratePerSecond: 0.001, burst: 1))
        if countedInStore { pipeline.rateLimitStore = MemoryStateStore() }
        let runs = Mutex(0)
        let grant = pipeline.wrap(
            ServiceRoute(
                .post, "/v1/swap",
                handler: Endpoint(.grant) { _, _, respond in
                    runs.withLock { $0 += 1 }
                    respond(EndpointAnswer(HTTPResponse(status: .ok)))
                }))
        let health = pipeline.wrap(
            ServiceRoute(
                .get, "/healthz",
                handler: Endpoint(.operations) { _, _, respond in
                    respond(EndpointAnswer(HTTPResponse(status: .ok)))
                }))
        func post(_ requestID: String) async throws -> HTTPResponse {
            try await grant.handler.response(
                to: HTTPRequest(
                    method: .post, target: "/v1/swap",
                    headers: HTTPHeaders([(RequestID.headerName, requestID)]),
                    remoteAddress: "192.0.2.1"),
                RequestContext(routePath: "/v1/swap"))
        }

        let first = try await post("first-id")
        let limited = try await post("second-id")
        let probe = try await health.handler.response(
            to: HTTPRequest(method: .get, target: "/healthz", remoteAddress: "192.0.2.1"),
            RequestContext(routePath: "/healthz"))

        #expect(first.status == .ok)
        #expect(first.headers[RequestID.headerName] == "first-id")
        #expect(limited.status.code == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(limited.headers[RequestID.headerName] == "second-id")
        #expect(probe.status == .ok)  // operations endpoints are never limited
        #expect(runs.withLock { $0 } == 1)
        let lines = logs.all
        #expect(lines.count == 3)
        let refusedLine = try #require(lines.first { $0.contains("request_id=second-id") })
        #expect(refusedLine.hasPrefix("info request "))
        #expect(refusedLine.contains("outcome=rate_limited"))
        #expect(refusedLine.contains("status=429"))
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"tokenswap_http_rejections_total{reason="rate_limited"} 1"#))
        #expect(
            text.contains(
                #"tokenswap_http_requests_total{route="/v1/swap",method="POST",status="429"} 1"#))
    }
}
