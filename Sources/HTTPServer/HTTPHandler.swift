import HTTPCore

/// What serves a request. It runs to completion on the event loop that owns the
/// connection (a task whose executor is that loop): awaiting I/O frees the loop for its
/// other connections, but a handler that computes for long holds them up, so handlers
/// keep to cheap work. A thrown error becomes the server's 500, which tells the client
/// nothing about the cause.
public typealias HTTPHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
