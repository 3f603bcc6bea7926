import HTTPCore
import HTTPServer
import Logging

/// What happens around every handler of the service, in one place: `wrap` is applied to
/// each `ServiceRoute` before it is registered, so per-request behaviour reaches every
/// endpoint:
/// - request id: `X-Request-Id` kept when it is a safe token, else a fresh one; set on
///   the request (the token endpoints log it) and echoed on the response;
/// - rate limit (token routes only): over the per-client limit, 429 `rate_limited` with
///   `Retry-After`, and the handler does not run;
/// - CORS (token routes): headers for allowed origins; preflights answered by the policy;
/// - metrics: requests by route, method and status, latency per route (operations
///   endpoints are left out: probes and scrapes would drown the traffic);
/// - the log line for endpoints that do not write their own (token endpoints log theirs
///   in `TokenService.answer`, with the upstream outcome).
/// Paths no route serves (404, 405) are answered inside HTTPServer and do not pass here;
/// its observer counts them.
public struct RequestPipeline: Sendable {
    public let logger: Logger
    public let metrics: ServiceMetrics
    /// nil: no rate limit (`TOKENSWAP_RATE_LIMIT` 0).
    public let rateLimiter: RateLimiter?
    public let trustedProxies: TrustedProxies
    /// nil: CORS off (`TOKENSWAP_CORS_ORIGINS` empty).
    public let cors: CORSPolicy?

    public init(
        logger: Logger, metrics: ServiceMetrics = ServiceMetrics(), rateLimiter: RateLimiter? = nil,
        trustedProxies: TrustedProxies = TrustedProxies([]), cors: CORSPolicy? = nil
    ) {
        self.logger = logger
        self.metrics = metrics
        self.rateLimiter = rateLimiter
        self.trustedProxies = trustedProxies
        self.cors = cors
    }

    public func wrap(_ route: ServiceRoute) -> HTTPHandler {
        let handler = route.handler
        let kind = route.kind
        let routeLimiter = route.limiter
        let pipeline = self
        let series =
            kind == .operations ? nil : metrics.route(route.path, method: route.method.rawValue)
        return { incoming in
            var request = incoming
            let requestID = RequestID.resolve(request.headers[RequestID.headerName])
            request.headers.replaceOrAdd(name: RequestID.headerName, value: requestID)
            let started = ContinuousClock.now
            var response: HTTPResponse
            var logged = kind == .token
            if kind == .token, let limited = pipeline.limit(request, route: routeLimiter) {
                response = limited
                logged = false
            } else {
                response = try await handler(request)
            }
            if kind == .token { pipeline.cors?.decorate(&response, for: request) }
            response.headers.replaceOrAdd(name: RequestID.headerName, value: requestID)
            let elapsed = ContinuousClock.now - started
            series?.record(status: response.status.code, duration: elapsed)
            if !logged {
                Self.log(
                    pipeline.logger, request, response, elapsed: elapsed,
                    outcome: kind == .token
                        ? TokenEndpointError.rateLimited(retryAfterSeconds: 1).errorCode : nil)
            }
            return response
        }
    }

    /// The 429 for a client over the service-wide limit or the route's own, or nil to go on.
    func limit(_ request: HTTPRequest, route routeLimiter: RateLimiter? = nil) -> HTTPResponse? {
        guard rateLimiter != nil || routeLimiter != nil else { return nil }
        let client = trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
        for limiter in [rateLimiter, routeLimiter] {
            guard case .limited(let seconds)? = limiter?.take(for: client) else { continue }
            metrics.rejected(.rateLimited)
            return TokenEndpointError.rateLimited(retryAfterSeconds: seconds).response
        }
        return nil
    }

    /// Method, path (never the query: the sandbox's authorize query carries a PKCE
    /// challenge and redirect), status, duration and request id; `outcome` for a token
    /// request the pipeline answered itself (`rate_limited`).
    static func log(
        _ logger: Logger, _ request: HTTPRequest, _ response: HTTPResponse, elapsed: Duration,
        outcome: String? = nil
    ) {
        let milliseconds =
            Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "path": "\(request.path)",
            "status": "\(response.status.code)",
            "duration_ms": "\(Int(milliseconds.rounded()))",
            "request_id": "\(request.headers[RequestID.headerName] ?? "-")",
        ]
        if let outcome { metadata["outcome"] = "\(outcome)" }
        logger.info("request", metadata: metadata)
    }
}
