import HTTPCore

/// What serves a request. It runs to completion on the event loop that owns the
/// connection (a task whose executor is that loop): awaiting I/O frees the loop for its
/// other connections, but a handler that computes for long holds them up, so handlers
/// keep to cheap work. A thrown error becomes the server's 500, which tells the client
/// nothing about the cause.
public typealias HTTPHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

/// A callback-shaped handler: called on the connection's loop, it calls `respond` once,
/// on that loop, with the response (experiment: measured against `HTTPHandler`).
public typealias HTTPResponder =
    @Sendable (HTTPRequest, RequestContext, @escaping @Sendable (HTTPResponse) -> Void) -> Void

/// How a route serves: by an async handler (a task on the loop) or by a responder.
public enum Serving: Sendable {
    case awaiting(HTTPHandler)
    case responding(HTTPResponder)
}
