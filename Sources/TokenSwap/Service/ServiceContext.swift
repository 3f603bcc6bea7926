/// What the pipeline hands an endpoint beside the request: the request id (echoed in
/// the response and written in the log line) and the matched route's path.
public struct ServiceContext: Sendable {
    public var requestID: String
    public var routePath: String

    public init(requestID: String, routePath: String) {
        self.requestID = requestID
        self.routePath = routePath
    }
}
