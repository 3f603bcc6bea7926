import HTTPCore
import HTTPServer

extension TokenSwapService {
    static func tokenRoutes(_ tokens: TokenService, _ configuration: ServiceConfiguration)
        -> [ServiceRoute]
    {
        tokens.routes(for: configuration).map { route in
            let handler = route.handler
            return ServiceRoute(kind: .token, method: route.method, path: route.path) {
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

    /// `GET /healthz`: the process is up. `GET /readyz`: configured, keys loaded, and not
    /// draining (503 while draining).
    static func operationsRoutes(_ readiness: Readiness) -> [ServiceRoute] {
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
