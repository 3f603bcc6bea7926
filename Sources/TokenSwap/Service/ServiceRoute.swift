import HTTPCore
import HTTPServer

/// One endpoint of the running service before the per-request pipeline wraps it: what
/// it is (`kind` decides which listener serves it and what the pipeline adds) and the
/// bare handler.
public struct ServiceRoute: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Swap and refresh: they log their own line (with the upstream outcome) in
        /// `TokenService`, and are what a rate limit or CORS applies to.
        case token
        /// `/healthz`, `/readyz`, `/metrics`: moved to the admin listener when
        /// `TOKENSWAP_ADMIN_PORT` is set; never rate limited.
        case operations
        /// The embedded fake provider of `--sandbox`.
        case sandbox
        /// RFC 8414 authorization server metadata (`/.well-known/…`): public, cacheable
        /// documents, never rate limited.
        case discovery
        /// `OPTIONS` on a token path, answered by the CORS policy (only registered when
        /// `TOKENSWAP_CORS_ORIGINS` is set); never rate limited.
        case preflight
    }

    public let kind: Kind
    public let method: HTTPMethod
    public let path: String
    public let handler: HTTPHandler
    /// A per-client limit of this route's own (token routes only), applied by the
    /// pipeline after the service-wide one.
    public let limiter: RateLimiter?

    public init(
        kind: Kind, method: HTTPMethod, path: String, limiter: RateLimiter? = nil,
        handler: @escaping HTTPHandler
    ) {
        self.kind = kind
        self.method = method
        self.path = path
        self.limiter = limiter
        self.handler = handler
    }
}
