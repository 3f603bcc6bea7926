import HTTPCore

/// One endpoint as data: what the server's `Router` registers (`router.add(route.method,
/// route.path, handler: route.handler)`).
public struct TokenRoute: Sendable {
    public let method: HTTPMethod
    public let path: String
    public let handler: @Sendable (HTTPRequest) async -> HTTPResponse
    /// A per-client limit of this route's own, on top of the service-wide one (set for
    /// `/introspect`).
    public let limiter: RateLimiter?

    public init(
        method: HTTPMethod, path: String, limiter: RateLimiter? = nil,
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.limiter = limiter
        self.handler = handler
    }
}
