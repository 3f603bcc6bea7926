import HTTPCore
import HTTPServer
import Logging
import Sealing
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
        let served = Served(
            pipeline: self, endpoint: route.handler,
            series: route.handler.kind == .operations
                ? nil : metrics.route(route.path, method: route.method.rawValue))
        return route.map { _ in HTTPHandler(served.serve) }
    }

    /// One route's endpoint with the pipeline around it, made once per route; a class, so
    /// the closure that takes a request's answer holds one reference, not a copy.
    private final class Served: Sendable {
        let pipeline: RequestPipeline
        let endpoint: Endpoint
        let series: RouteMetrics?

        init(pipeline: RequestPipeline, endpoint: Endpoint, series: RouteMetrics?) {
            self.pipeline = pipeline
            self.endpoint = endpoint
            self.series = series
        }

        /// Every request: its context, the rate limit (grant endpoints only), then `run`.
        /// The limit is decided in place in memory, and only a limit counted in the shared
        /// store answers later, from the store's loop.
        func serve(
            _ request: HTTPRequest, _ server: RequestContext, _ respond: HTTPHandler.Respond
        ) {
            let context = ServiceContext(
                requestID: RequestID.resolve(request.headers[RequestID.headerName]), server: server)
            guard endpoint.kind == .grant, let rateLimiter = pipeline.rateLimiter else {
                return run(request, context, refused: nil, respond)
            }
            let client = pipeline.trustedProxies.clientAddress(
                peer: request.remoteAddress,
                forwardedFor: request.headers.values("X-Forwarded-For"))
            guard let store = pipeline.rateLimitStore else {
                let refused = pipeline.refusal(rateLimiter.take(for: client))
                return run(request, context, refused: refused, respond)
            }
            ClientRateLimit.take(client, limiter: rateLimiter, store: store, name: "request") {
                self.run(request, context, refused: self.pipeline.refusal($0), respond)
            }
        }

        /// The endpoint's answer, or the 429 when the limit `refused` the request, through
        /// `finish`.
        func run(
            _ request: HTTPRequest, _ context: ServiceContext, refused: GrantError?,
            _ respond: HTTPHandler.Respond
        ) {
            if let refused {
                return respond(finish(request, RequestPipeline.answer(refused), context))
            }
            endpoint(request, context) { answer in
                respond(self.finish(request, answer, context))
            }
        }

        /// After the endpoint: CORS, the request id, metrics and the log line.
        func finish(_ request: HTTPRequest, _ answer: EndpointAnswer, _ context: ServiceContext)
            -> HTTPResponse
        {
            var answer = answer
            // Browser apps read the discovery document too (a simple GET: no preflight).
            if endpoint.kind == .grant || endpoint.kind == .discovery {
                pipeline.cors?.decorate(&answer.response, for: request)
            }
            answer.response.headers.replaceOrAdd(
                name: RequestID.headerName, value: context.requestID)
            let elapsed = Deadline.now.duration(since: context.server.started)
            series?.record(status: answer.response.status.code, duration: elapsed)
            pipeline.log(request, answer, requestID: context.requestID, elapsed: elapsed)
            return answer.response
        }
    }

    /// The 429 a refused request is answered, with its outcome for the log line.
    static func answer(_ limited: GrantError) -> EndpointAnswer {
        EndpointAnswer(
            limited.response,
            outcome: RequestOutcome(provider: nil, grant: nil, result: limited.errorCode))
    }

    /// The 429 for `decision`, or nil to go on.
    func refusal(_ decision: RateDecision) -> GrantError? {
        guard case .limited(let seconds) = decision else { return nil }
        metrics.rejected(.rateLimited)
        return .rateLimited(retryAfterSeconds: seconds)
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

/// The `X-Request-Id` of a request: the client's (or a proxy's) when it is a safe token,
/// otherwise a fresh one, echoed in the response and written in the request's log line
/// so one request can be followed from client to proxy to provider call.
public enum RequestID {
    public static let headerName = "X-Request-Id"
    /// Longer ids are replaced: a log line must not be blown up by a header.
    public static let maxLength = 128

    /// The id as sent if it is 1...`maxLength` token characters (RFC 9110 §5.6.2: visible
    /// ASCII without separators, so it cannot break a header, a log line or JSON);
    /// nil otherwise.
    public static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maxLength,
            value.utf8.allSatisfy(HTTPGrammar.isToken)
        else { return nil }
        return value
    }

    /// A new id: 128 random bits as 32 lowercase hex digits, from OpenSSL's DRBG (no
    /// system call per request); the kernel's generator if OpenSSL ever fails.
    public static func mint() -> String {
        let (high, low) =
            SecureRandom.words()
            ?? {
                var generator = SystemRandomNumberGenerator()
                return (generator.next(), generator.next())
            }()
        // Written straight into the string's storage: this runs on every request.
        return String(unsafeUninitializedCapacity: 32) { digits in
            for position in 0..<32 {
                let word = position < 16 ? high : low
                let shift = UInt64(60 - 4 * (position % 16))
                digits[position] = Hex.digit(UInt8(truncatingIfNeeded: word >> shift))
            }
            return 32
        }
    }

    /// The request's id: the accepted one, or a fresh one.
    public static func resolve(_ value: String?) -> String {
        accepted(value) ?? mint()
    }
}
