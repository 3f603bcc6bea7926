import HTTPCore
import HTTPServer

/// What serves one endpoint of the service: its kind (which listener serves it and what
/// the pipeline adds around it) and the handler. Endpoints are described as
/// `ServiceRoute`s (`Route<Endpoint>`, the server's one route shape) and wrapped once by
/// `RequestPipeline`.
public struct Endpoint: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Grant endpoints (swap, refresh, …): rate limited, CORS applies, and their
        /// answers carry an outcome for the log line.
        case grant
        /// `/healthz`, `/readyz`, `/metrics`: moved to the admin listener when
        /// `TOKENSWAP_ADMIN_PORT` is set; never rate limited, not timed in metrics.
        case operations
        /// The embedded fake provider of `--sandbox`.
        case sandbox
        /// `OPTIONS` on a grant path, answered by the CORS policy (only registered when
        /// `TOKENSWAP_CORS_ORIGINS` is set); never rate limited.
        case preflight
        /// RFC 8414 authorization server metadata (`/.well-known/…`): public documents,
        /// never rate limited.
        case discovery
    }

    public typealias Respond = @Sendable (EndpointAnswer) -> Void
    /// What serves an endpoint, in the server's one shape (`HTTPHandler`): called on the
    /// connection's loop, it calls `respond` once. The hot paths (swap, refresh, the token
    /// endpoint) are written so and need no task; `async` builds one from an async function.
    public typealias Responder = @Sendable (HTTPRequest, ServiceContext, @escaping Respond) -> Void

    public let kind: Kind
    let responder: Responder

    public init(_ kind: Kind, respond: @escaping Responder) {
        self.kind = kind
        self.responder = respond
    }

    /// Calls the responder; `respond` receives its one answer.
    public func callAsFunction(
        _ request: HTTPRequest, _ context: ServiceContext, _ respond: @escaping Respond
    ) {
        responder(request, context, respond)
    }

    /// An endpoint that runs `handle` as a task whose executor is the connection's loop
    /// (`context.server.executor`), as `HTTPHandler.async` does: awaiting I/O frees the
    /// loop for its other connections.
    public static func async(
        _ kind: Kind,
        _ handle: @escaping @Sendable (HTTPRequest, ServiceContext) async -> EndpointAnswer
    ) -> Endpoint {
        Endpoint(kind) { request, context, respond in
            Task(executorPreference: context.server.executor) {
                respond(await handle(request, context))
            }
        }
    }
}

/// An endpoint of the service at its method and path.
public typealias ServiceRoute = Route<Endpoint>

/// An endpoint's response, and for a grant endpoint what happened (for the one log line
/// the pipeline writes per request).
public struct EndpointAnswer: Sendable {
    public var response: HTTPResponse
    public var outcome: RequestOutcome?

    public init(_ response: HTTPResponse, outcome: RequestOutcome? = nil) {
        self.response = response
        self.outcome = outcome
    }
}

/// What a token request did: which provider and grant (nil when it was refused before
/// either was known), and how it ended (`ok` or the error code of `GrantError`).
/// Never a field value: codes and tokens stay out.
public struct RequestOutcome: Sendable, Equatable {
    public var provider: String?
    public var grant: String?
    public var result: String

    public init(provider: String?, grant: String?, result: String) {
        self.provider = provider
        self.grant = grant
        self.result = result
    }
}

/// What the pipeline hands an endpoint beside the request: the request id (echoed in
/// the response and written in the log line) and what the server knows of the request
/// (`server`: the matched route's path, when it started, and the connection's loop as an
/// executor for an endpoint that answers by callback but needs a task for part of its
/// work).
public struct ServiceContext: Sendable {
    public var requestID: String
    public var server: RequestContext
    public var routePath: String { server.routePath }

    public init(requestID: String, server: RequestContext) {
        self.requestID = requestID
        self.server = server
    }

    /// A context outside a server (no loop to start a task on).
    public init(requestID: String, routePath: String) {
        self.init(requestID: requestID, server: RequestContext(routePath: routePath))
    }
}
