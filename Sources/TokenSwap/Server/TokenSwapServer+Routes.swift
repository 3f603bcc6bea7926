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
                        respond(EndpointAnswer(readinessAnswer(readiness)))
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

    /// `/readyz`'s answer: 200, or 503 naming why (draining; the state store down in
    /// `closed` mode, CONTRACT §12).
    static func readinessAnswer(_ readiness: Readiness) -> HTTPResponse {
        if readiness.isDraining {
            return OAuthErrorResponse.make(
                .serviceUnavailable, code: "draining",
                description: "The service is shutting down.", headers: operationsHeaders)
        }
        if readiness.isWaitingForStateStore {
            var headers = operationsHeaders
            headers.add(name: "Retry-After", value: String(FailoverStateStore.retryAfterSeconds))
            return OAuthErrorResponse.make(
                .serviceUnavailable, code: "temporarily_unavailable",
                description: "The shared state store cannot be reached.", headers: headers)
        }
        return json(.ok, #"{"status":"ready"}"#)
    }

    static let operationsHeaders = HTTPHeaders([
        ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
    ])

    static func json(_ status: HTTPStatus, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: operationsHeaders, body: Array(body.utf8))
    }
}
