import HTTPCore
import HTTPServer
import Logging

/// What happens around every handler of the service, in one place: `wrap` is applied to
/// each `ServiceRoute` before it is registered, so per-request behaviour (metrics, CORS,
/// rate limits, request ids) is added here once and reaches every endpoint.
///
/// Today it writes the one log line per request for the endpoints that do not write their
/// own (token endpoints log theirs in `TokenService.answer`, with the upstream outcome).
/// Paths no route serves (404, 405) are answered inside HTTPServer and do not pass here.
public struct RequestPipeline: Sendable {
    public let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func wrap(_ route: ServiceRoute) -> HTTPHandler {
        let handler = route.handler
        switch route.kind {
        case .token:
            return handler
        case .operations, .sandbox:
            let logger = logger
            return { request in
                let started = ContinuousClock.now
                let response = try await handler(request)
                Self.log(logger, request, response, since: started)
                return response
            }
        }
    }

    /// Method, path (never the query: the sandbox's authorize query carries a PKCE
    /// challenge and redirect), status and duration.
    static func log(
        _ logger: Logger, _ request: HTTPRequest, _ response: HTTPResponse,
        since started: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - started
        let milliseconds =
            Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.path)",
                "status": "\(response.status.code)",
                "duration_ms": "\(Int(milliseconds.rounded()))",
            ])
    }
}
