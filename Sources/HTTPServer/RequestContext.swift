import Transport

/// What the server knows about a request besides its bytes, handed to the handler
/// beside the request: never carried through the request's headers.
public struct RequestContext: Sendable {
    /// The path of the route that matched (the registered path, without the query).
    package var routePath: String
    /// When the request was complete and handed to its handler, on the clock of every
    /// deadline (`Deadline.now`).
    package var started: Deadline
    /// The event loop that owns the connection, an executor: a handler that needs a task
    /// starts it here (`Task(executorPreference:)`, as `HTTPHandler.async` does), so it
    /// stays on the connection's thread. The one place it is handed down: the product's
    /// own context carries this one. The loop's own type, not `any TaskExecutor`: a copy
    /// of the context is then a retain, not an existential's. nil outside a server (tests
    /// calling a handler directly).
    package var executor: EventLoop?

    package init(routePath: String, started: Deadline = .now, executor: EventLoop? = nil) {
        self.routePath = routePath
        self.started = started
        self.executor = executor
    }
}
