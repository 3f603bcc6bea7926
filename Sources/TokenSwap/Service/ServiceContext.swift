import HTTPServer

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
