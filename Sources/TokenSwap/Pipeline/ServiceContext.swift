/// What the pipeline hands an endpoint beside the request: the request id (echoed in
/// the response and written in the log line), the matched route's path, and the
/// connection's loop as an executor for an endpoint that answers by callback but needs a
/// task for part of its work.
public struct ServiceContext: Sendable {
    public var requestID: String
    public var routePath: String
    public var executor: (any TaskExecutor)?

    public init(requestID: String, routePath: String, executor: (any TaskExecutor)? = nil) {
        self.requestID = requestID
        self.routePath = routePath
        self.executor = executor
    }
}
