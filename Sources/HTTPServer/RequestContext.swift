/// What the server knows about a request besides its bytes, handed to the handler
/// beside the request: never carried through the request's headers.
public struct RequestContext: Sendable {
    /// The path of the route that matched (the registered path, without the query).
    public var routePath: String
    /// When the request was complete and handed to its handler.
    public var started: ContinuousClock.Instant
    /// The event loop that owns the connection, as an executor: a responding handler that
    /// needs a task starts it here (`Task(executorPreference:)`), so it stays on the
    /// connection's thread. nil outside a server (tests calling a handler directly).
    public var executor: (any TaskExecutor)?

    public init(
        routePath: String, started: ContinuousClock.Instant = .now,
        executor: (any TaskExecutor)? = nil
    ) {
        self.routePath = routePath
        self.started = started
        self.executor = executor
    }
}
