import HTTPCore

/// What serves a request, on the event loop that owns the connection, in one of two
/// shapes:
/// - `responding`: called on the loop with the request; it calls `respond` exactly once
///   (from any thread; the answer is written on the loop). No task: the shape for the
///   hot path, where an upstream exchange on one of the loop's own connections answers
///   by callback on the same thread (BENCHMARKS.md: 9 fewer allocations and less CPU
///   per refresh than an awaiting handler).
/// - `awaiting`: an async function run as a task whose executor is the loop; awaiting
///   I/O frees the loop for its other connections. A thrown error becomes the server's
///   500, which tells the client nothing about the cause.
/// Either way a handler that computes for long holds up the loop's other connections,
/// so handlers keep to cheap work.
public enum HTTPHandler: Sendable {
    public typealias Respond = @Sendable (HTTPResponse) -> Void

    case responding(@Sendable (HTTPRequest, RequestContext, @escaping Respond) -> Void)
    case awaiting(@Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse)

    /// The handler's response to `request`, awaited whichever its shape: for callers
    /// outside a server (tests, tools). The server itself never awaits a responder.
    public func response(to request: HTTPRequest, _ context: RequestContext) async throws
        -> HTTPResponse
    {
        switch self {
        case .awaiting(let handler):
            return try await handler(request, context)
        case .responding(let responder):
            return await withCheckedContinuation { continuation in
                responder(request, context) { continuation.resume(returning: $0) }
            }
        }
    }
}

extension Route where Handler == HTTPHandler {
    /// A route served by an async function (`HTTPHandler.awaiting`).
    public init(
        _ method: HTTPMethod, _ path: String,
        awaiting handler:
            @escaping @Sendable (HTTPRequest, RequestContext) async throws
            -> HTTPResponse
    ) {
        self.init(method, path, handler: .awaiting(handler))
    }
}
