import HTTPCore
import HTTPServer

extension TokenSwapServer {
    /// `OPTIONS` on every token path, answered by the CORS policy; none when CORS is off
    /// (OPTIONS then stays a 405 with `Allow: POST`).
    static func preflightRoutes(for tokenRoutes: [ServiceRoute], _ cors: CORSPolicy?)
        -> [ServiceRoute]
    {
        guard let cors else { return [] }
        return tokenRoutes.map { route in
            ServiceRoute(
                .options, route.path,
                handler: .async(.preflight) { request, _ in
                    EndpointAnswer(cors.preflight(request))
                })
        }
    }

    /// `GET /healthz`: the process is up. `GET /readyz`: configured, keys loaded, and not
    /// draining (503 while draining). `GET /metrics`: Prometheus text format.
    static func operationsRoutes(_ readiness: Readiness, _ metrics: ServiceMetrics)
        -> [ServiceRoute]
    {
        [
            ServiceRoute(
                .get, "/healthz",
                // Probes come often and need no task: answered in place.
                handler: Endpoint(
                    .operations,
                    respond: { _, _, respond in
                        respond(EndpointAnswer(json(.ok, #"{"status":"ok"}"#)))
                    })),
            ServiceRoute(
                .get, "/readyz",
                handler: Endpoint(
                    .operations,
                    respond: { _, _, respond in
                        respond(
                            EndpointAnswer(
                                readiness.isReady
                                    ? json(.ok, #"{"status":"ready"}"#)
                                    : OAuthErrorResponse.make(
                                        .serviceUnavailable, code: "draining",
                                        description: "The service is shutting down.",
                                        headers: operationsHeaders)))
                    })),
            ServiceRoute(
                .get, "/metrics",
                handler: .async(.operations) { _, _ in
                    EndpointAnswer(
                        HTTPResponse(
                            status: .ok,
                            headers: HTTPHeaders([
                                ("Content-Type", "text/plain; version=0.0.4; charset=utf-8"),
                                ("Cache-Control", "no-store"),
                            ]),
                            body: await metrics.exposition()))
                }),
        ]
    }

    static let operationsHeaders = HTTPHeaders([
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
    ])

    static func json(_ status: HTTPStatus, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: operationsHeaders, body: Array(body.utf8))
    }
}
