import HTTPCore

/// What serves a request. It runs off the event loop (in a Task); its result goes back to
/// the connection's loop, so a slow handler never stalls other connections. A thrown
/// error becomes a 500 that tells the client nothing about the cause.
public typealias HTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse
