import HTTPClient
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// What `/metrics` renders after real handler runs: the expected series with bounded
/// labels, and never a secret, code or token.
@Suite struct ServiceMetricsTests {
    static func text(_ metrics: ServiceMetrics) async -> String {
        String(decoding: await metrics.exposition(), as: UTF8.self)
    }

    @Test func upstreamOutcomesSealingFailuresAndOpensAreCounted() async throws {
        let metrics = ServiceMetrics()
        let provider = try GrantEndpointsFixtures.provider()
        let rawRefresh = "raw-refresh-token-value-1234"
        let upstream = RecordingUpstream(
            RecordingUpstream.json(
                200,
                #"{"access_token":"access-secret-1","expires_in":60,"refresh_token":"\#(rawRefresh)"}"#
            ),
            RecordingUpstream.json(400, #"{"error":"invalid_grant"}"#),
            RecordingUpstream.json(429, "busy"),
            RecordingUpstream.json(503, "down"),
            RecordingUpstream.json(200, "not json"),
            .failure(.unreachable(reason: "connect: ECONNREFUSED")),
            .failure(.timeout(.exchange)),
            .failure(.tls(.handshake(reason: "certificate verify failed"))),
            RecordingUpstream.json(200, #"{"access_token":"access-secret-2","expires_in":60}"#))
        let service = GrantEndpoints(
            keyRing: try .init(
                parsing: GrantEndpointsFixtures.newKey + "," + GrantEndpointsFixtures.oldKey),
            transport: upstream, upstreamTimeoutSeconds: 2, logger: LogCapture().logger,
            metrics: metrics)
        let swap = await service.answer {
            $0.swap(
                GrantEndpointsFixtures.form("code=the-secret-code-777"), provider: provider,
                completion: $1)
        }.response
        #expect(swap.status.code == 200)
        let sealed = try #require(
            try GrantEndpointsFixtures.body(swap)["refresh_token"]?.stringValue)
        for _ in 0..<7 {
            _ = await service.answer {
                $0.swap(
                    GrantEndpointsFixtures.form("code=the-secret-code-777"), provider: provider,
                    completion: $1)
            }.response
        }
        let refresh = await service.answer {
            $0.refresh(
                GrantEndpointsFixtures.form("refresh_token=\(sealed)", path: "/v1/refresh"),
                provider: provider, completion: $1)
        }.response
        #expect(refresh.status.code == 200)
        let tampered = await service.answer {
            $0.refresh(
                GrantEndpointsFixtures.form(
                    "refresh_token=\(sealed.dropLast(3))AAA", path: "/v1/refresh"),
                provider: provider, completion: $1)
        }.response
        #expect(tampered.status.code == 400)

        let text = await Self.text(metrics)
        for outcome in [
            "ok", "provider_error", "rate_limited", "server_error", "invalid_response",
            "unreachable", "timeout", "tls",
        ] {
            let count = outcome == "ok" ? 2 : 1
            #expect(
                text.contains(
                    #"tokenswap_upstream_requests_total{provider="spotify",outcome="\#(outcome)"} \#(count)"#
                ),
                "\(outcome)")
        }
        #expect(text.contains(#"tokenswap_sealed_token_opens_total{kid="new"} 1"#))
        #expect(
            text.contains(
                #"tokenswap_sealing_failures_total{operation="open",reason="invalid_token"} 1"#))
        for secret in [
            GrantEndpointsFixtures.secret, "the-secret-code-777", rawRefresh, sealed,
            "access-secret-1",
            "access-secret-2", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
        ] {
            #expect(!text.contains(secret))
        }
    }

    @Test func serverEventsBecomeRejectionsAndUnmatchedRequests() async {
        let metrics = ServiceMetrics()
        let before = await Self.text(metrics)
        // Every reason is exported from the start, at 0.
        for reason in RejectionReason.allCases {
            #expect(
                before.contains(#"tokenswap_http_rejections_total{reason="\#(reason.rawValue)"} 0"#)
            )
        }
        metrics.observe(.malformed(.duplicateHost))
        metrics.observe(.malformed(.contentTooLarge))
        metrics.observe(.deadlinePassed(.header))
        metrics.observe(.deadlinePassed(.idle))
        metrics.observe(.deadlinePassed(.idle))
        metrics.observe(.connectionCapReached)
        metrics.observe(.unrouted(status: .notFound))
        metrics.observe(.unrouted(status: .notFound))
        metrics.observe(.unrouted(status: .methodNotAllowed))
        let text = await Self.text(metrics)
        for line in [
            #"tokenswap_http_rejections_total{reason="malformed"} 2"#,
            #"tokenswap_http_rejections_total{reason="header_timeout"} 1"#,
            #"tokenswap_http_rejections_total{reason="idle_timeout"} 2"#,
            #"tokenswap_http_rejections_total{reason="connection_cap"} 1"#,
            #"tokenswap_http_parse_errors_total{status="400",reason="duplicateHost"} 1"#,
            #"tokenswap_http_parse_errors_total{status="413",reason="contentTooLarge"} 1"#,
            #"tokenswap_http_requests_total{route="unmatched",method="unmatched",status="404"} 2"#,
            #"tokenswap_http_requests_total{route="unmatched",method="unmatched",status="405"} 1"#,
        ] {
            #expect(text.contains(line), "\(line)")
        }
    }

    @Test func thePipelineCountsRoutesNotRawPathsAndSkipsOperations() async throws {
        let metrics = ServiceMetrics()
        let pipeline = RequestPipeline(logger: LogCapture().logger, metrics: metrics)
        let token = pipeline.wrap(
            ServiceRoute(
                .post, "/v1/swap",
                handler: .async(.grant) { _, _ in EndpointAnswer(HTTPResponse(status: .ok)) }))
        let health = pipeline.wrap(
            ServiceRoute(
                .get, "/healthz",
                handler: .async(.operations) { _, _ in EndpointAnswer(HTTPResponse(status: .ok)) }
            ))
        for _ in 0..<3 {
            _ = try await token.handler.response(
                to: HTTPRequest(method: .post, target: "/v1/swap?code=secret-in-query"),
                RequestContext(routePath: "/v1/swap"))
        }
        _ = try await health.handler.response(
            to: HTTPRequest(method: .get, target: "/healthz"), RequestContext(routePath: "/healthz")
        )
        let text = await Self.text(metrics)
        #expect(
            text.contains(
                #"tokenswap_http_requests_total{route="/v1/swap",method="POST",status="200"} 3"#))
        #expect(
            text.contains(
                #"tokenswap_http_request_duration_seconds_count{route="/v1/swap",method="POST"} 3"#)
        )
        #expect(!text.contains("secret-in-query"))
        #expect(!text.contains("/healthz"))
    }
}
