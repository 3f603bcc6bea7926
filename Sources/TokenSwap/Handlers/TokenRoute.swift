import HTTPCore

/// One endpoint as data: what the server's `Router` registers (`router.add(route.method,
/// route.path, handler: route.handler)`).
public struct TokenRoute: Sendable {
    public let method: HTTPMethod
    public let path: String
    public let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    public init(
        method: HTTPMethod, path: String,
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}
