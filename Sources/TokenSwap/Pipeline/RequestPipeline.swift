import HTTPCore
import HTTPServer
import Logging
import Transport

/// What happens around every endpoint of the service, in one place: `wrap` turns each
/// `ServiceRoute` into the server's route, so per-request behaviour reaches every
/// endpoint:
/// - request id: `X-Request-Id` kept when it is a safe token, else a fresh one; handed
///   to the endpoint in its `ServiceContext` and echoed on the response;
/// - rate limit (grant endpoints only): over the per-client limit, 429 `rate_limited`
///   with `Retry-After`, and the endpoint does not run;
/// - CORS (grant endpoints and discovery documents): headers for allowed origins;
/// - metrics: requests by route, method and status, latency per route (operations
///   endpoints are left out: probes and scrapes would drown the traffic);
/// - the request's one log line, with the endpoint's outcome when it gives one.
/// Errors the server answers itself (404, 405, framing) are shaped by `errorResponder`.
public struct RequestPipeline: Sendable {
    public let logger: Logger
    public let metrics: ServiceMetrics
    /// nil: no rate limit (`TOKENSWAP_RATE_LIMIT` 0).
    public let rateLimiter: RateLimiter?
    public let trustedProxies: TrustedProxies
    /// nil: CORS off (`TOKENSWAP_CORS_ORIGINS` empty).
    public let cors: CORSPolicy?
    /// Where `rateLimiter`'s buckets are counted when a shared store is configured
    /// (CONTRACT §12: the limit holds across copies); nil: in `rateLimiter` itself.
    package var rateLimitStore: (any StateStore)?

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

    public func wrap(_ route: ServiceRoute) -> Route<HTTPHandler> {
        let pipeline = self
        let kind = route.handler.kind
        let series =
            kind == .operations ? nil : metrics.route(route.path, method: route.method.rawValue)
        let finish: @Sendable (HTTPRequest, EndpointAnswer, ServiceContext) -> HTTPResponse = {
            request, answer, context in
            pipeline.finish(request, answer, context, kind: kind, series: series)
        }
        let endpoint = route.handler
        return route.map { _ in
            HTTPHandler { request, server, respond in
                pipeline.begin(request, server, kind: kind) { context, refused in
                    if let refused { return respond(finish(request, refused, context)) }
                    endpoint(request, context) { answer in
                        respond(finish(request, answer, context))
                    }
                }
            }
        }
    }

    /// Before the endpoint: the request's context, and the answer when the rate limit
    /// refuses it; answered at once (no hop) unless the limit counts in a shared store.
    func begin(
        _ request: HTTPRequest, _ server: RequestContext, kind: Endpoint.Kind,
        _ next: @escaping @Sendable (ServiceContext, EndpointAnswer?) -> Void
    ) {
        let context = ServiceContext(
            requestID: RequestID.resolve(request.headers[RequestID.headerName]), server: server)
        guard kind == .grant else { return next(context, nil) }
        limit(request) { limited in
            guard let limited else { return next(context, nil) }
            next(
                context,
                EndpointAnswer(
                    limited.response,
                    outcome: RequestOutcome(provider: nil, grant: nil, result: limited.errorCode)))
        }
    }

    /// After the endpoint: CORS, the request id, metrics and the log line.
    func finish(
        _ request: HTTPRequest, _ answer: EndpointAnswer, _ context: ServiceContext,
        kind: Endpoint.Kind, series: RouteMetrics?
    ) -> HTTPResponse {
        var answer = answer
        // Browser apps read the discovery document too (a simple GET: no preflight).
        if kind == .grant || kind == .discovery {
            cors?.decorate(&answer.response, for: request)
        }
        answer.response.headers.replaceOrAdd(name: RequestID.headerName, value: context.requestID)
        let elapsed = Deadline.now.duration(since: context.server.started)
        series?.record(status: answer.response.status.code, duration: elapsed)
        log(request, answer, requestID: context.requestID, elapsed: elapsed)
        return answer.response
    }

    /// The answers the server gives itself, in the contract's error shape, each with a
    /// request id: the request's own when one was read (404, 405, 500), else a fresh one
    /// (a head that could not be parsed has no id to trust).
    public var errorResponder: ErrorResponder {
        { error, request in
            var response = OAuthErrorResponse.make(
                error.status, code: error.code, description: error.errorDescription,
                headers: HTTPHeaders([("Content-Type", "application/json")]))
            response.headers.add(
                name: RequestID.headerName,
                value: RequestID.resolve(request?.headers[RequestID.headerName]))
            return response
        }
    }

    /// The 429 for a client over its limit, or nil to go on.
    func limit(_ request: HTTPRequest, _ completion: @escaping @Sendable (GrantError?) -> Void) {
        guard let rateLimiter else { return completion(nil) }
        let client = trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
        let metrics = self.metrics
        let decided: @Sendable (RateDecision) -> Void = { decision in
            guard case .limited(let seconds) = decision else { return completion(nil) }
            metrics.rejected(.rateLimited)
            completion(.rateLimited(retryAfterSeconds: seconds))
        }
        guard let rateLimitStore else { return decided(rateLimiter.take(for: client)) }
        ClientRateLimit.take(
            client, limiter: rateLimiter, store: rateLimitStore, name: "request", decided)
    }

    /// Method, path (never the query: the sandbox's authorize query carries a PKCE
    /// challenge and redirect), status, duration and request id; for a token request the
    /// provider, grant and outcome. Never a field value.
    func log(_ request: HTTPRequest, _ answer: EndpointAnswer, requestID: String, elapsed: Duration)
    {
        // Built only when written: at `warning` the line costs nothing per request.
        guard logger.logLevel <= .info else { return }
        let milliseconds =
            Double(elapsed.components.seconds) * 1000
            + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "path": "\(request.path)",
            "status": "\(answer.response.status.code)",
            "duration_ms": "\(Int(milliseconds.rounded()))",
            "request_id": "\(requestID)",
        ]
        if let outcome = answer.outcome {
            if let provider = outcome.provider { metadata["provider"] = "\(provider)" }
            if let grant = outcome.grant { metadata["grant"] = "\(grant)" }
            metadata["outcome"] = "\(outcome.result)"
        }
        // A request a grant endpoint served names itself so; one refused before (rate
        // limit) is a plain request line with its outcome.
        logger.info(
            answer.outcome?.provider == nil ? "request" : "token request", metadata: metadata)
    }
}
