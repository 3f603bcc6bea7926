import HTTPCore
import HTTPServer

/// What serves one endpoint of the service: its kind (which listener serves it and what
/// the pipeline adds around it) and the handler. Endpoints are described as
/// `ServiceRoute`s (`Route<Endpoint>`, the server's one route shape) and wrapped once by
/// `RequestPipeline`.
public struct Endpoint: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Token endpoints (swap, refresh, …): rate limited, CORS applies, and their
        /// answers carry an outcome for the log line.
        case token
        /// `/healthz`, `/readyz`, `/metrics`: moved to the admin listener when
        /// `TOKENSWAP_ADMIN_PORT` is set; never rate limited, not timed in metrics.
        case operations
        /// The embedded fake provider of `--sandbox`.
        case sandbox
        /// `OPTIONS` on a token path, answered by the CORS policy (only registered when
        /// `TOKENSWAP_CORS_ORIGINS` is set); never rate limited.
        case preflight
        /// RFC 8414 authorization server metadata (`/.well-known/…`): public documents,
        /// never rate limited.
        case discovery
    }

    public typealias Handler = @Sendable (HTTPRequest, ServiceContext) async -> EndpointAnswer

    /// The callback shape (experiment): called on the loop, answers once on the loop.
    public typealias Responder =
        @Sendable (HTTPRequest, ServiceContext, @escaping @Sendable (EndpointAnswer) -> Void) -> Void

    public let kind: Kind
    public let handle: Handler
    public let respond: Responder?

    public init(_ kind: Kind, handle: @escaping Handler, respond: Responder? = nil) {
        self.kind = kind
        self.handle = handle
        self.respond = respond
    }
}

/// An endpoint of the service at its method and path.
public typealias ServiceRoute = Route<Endpoint>
