/// What the server knows about a request besides its bytes, handed to the handler
/// beside the request: never carried through the request's headers.
public struct RequestContext: Sendable {
    /// The path of the route that matched (the registered path, without the query).
    public var routePath: String
    /// When the request was complete and handed to its handler.
    public var started: ContinuousClock.Instant

    public init(routePath: String, started: ContinuousClock.Instant = .now) {
        self.routePath = routePath
        self.started = started
    }
}
