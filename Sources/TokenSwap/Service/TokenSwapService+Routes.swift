import HTTPCore
import HTTPServer

extension TokenSwapService {
    static func tokenRoutes(_ tokens: TokenService, _ configuration: ServiceConfiguration)
        -> [ServiceRoute]
    {
        tokens.routes(for: configuration).map { route in
            let handler = route.handler
            return ServiceRoute(
                kind: .token, method: route.method, path: route.path, limiter: route.limiter
            ) {
                await handler($0)
            }
        }
    }

    static func sandboxRoutes(_ sandbox: SandboxProvider?) -> [ServiceRoute] {
        guard let sandbox else { return [] }
        return sandbox.routes.map { route in
            let handler = route.handler
            return ServiceRoute(kind: .sandbox, method: route.method, path: route.path) {
                await handler($0)
            }
        }
    }

    /// `OPTIONS` on every token path, answered by the CORS policy; none when CORS is off
    /// (OPTIONS then stays a 405 with `Allow: POST`).
    static func preflightRoutes(for tokenRoutes: [ServiceRoute], _ cors: CORSPolicy?)
        -> [ServiceRoute]
    {
        guard let cors else { return [] }
        return tokenRoutes.map { route in
            ServiceRoute(kind: .preflight, method: .options, path: route.path) { request in
                cors.preflight(request)
            }
        }
    }

    /// `GET /healthz`: the process is up. `GET /readyz`: configured, keys loaded, and not
    /// draining (503 while draining). `GET /metrics`: Prometheus text format.
    static func operationsRoutes(_ readiness: Readiness, _ metrics: ServiceMetrics)
        -> [ServiceRoute]
    {
        [
            ServiceRoute(kind: .operations, method: .get, path: "/healthz") { _ in
                json(.ok, #"{"status":"ok"}"#)
            },
            ServiceRoute(kind: .operations, method: .get, path: "/readyz") { _ in
                readiness.isReady
                    ? json(.ok, #"{"status":"ready"}"#)
                    : json(
                        .serviceUnavailable,
                        #"{"error":"draining","error_description":"The service is shutting down."}"#
                    )
            },
            ServiceRoute(kind: .operations, method: .get, path: "/metrics") { _ in
                HTTPResponse(
                    status: .ok,
                    headers: HTTPHeaders([
                        ("Content-Type", "text/plain; version=0.0.4; charset=utf-8"),
                        ("Cache-Control", "no-store"),
                    ]),
                    body: await metrics.exposition())
            },
        ]
    }

    static func json(_ status: HTTPStatus, _ body: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: HTTPHeaders([
                ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
            ]),
            body: Array(body.utf8))
    }
}
