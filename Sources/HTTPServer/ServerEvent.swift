import HTTPCore

/// One thing the server did on its own that an operator wants counted.
public enum ServerEvent: Sendable, Equatable {
    /// A request head or chunked body broke the framing rules or a size limit; the
    /// connection was answered with the error's status and closed.
    case malformed(HTTPParseError)
    /// A connection's deadline passed (408 for a head or body in progress, a plain close
    /// for idle and write).
    case deadlinePassed(ServerDeadline)
    /// No route for the path (404) or not for this method (405).
    case unrouted(status: HTTPStatus)
    /// Accepting paused at the connection cap (`maxConnections`): new connections wait in
    /// the listen backlog.
    case connectionCapReached
    /// Accepting paused because the process or system ran out of descriptors or memory.
    case acceptResourcesExhausted
    /// A request was refused (503, connection closed): the request bytes waiting on the
    /// network across the server (stalled heads and bodies) reached
    /// `maxBodyBytesInFlight`.
    case bodyBudgetExceeded
    /// A connection was closed at accept (or, on a listener that makes room, one of its
    /// client's idle ones was): its client already holds `maxConnectionsPerClient`.
    case clientConnectionCapReached
}

/// Which connection deadline passed (ServerConfiguration's timeouts).
public enum ServerDeadline: String, Sendable, Equatable, CaseIterable {
    /// The request head did not complete in time (or a new connection sent nothing).
    case header
    /// The body did not complete in time.
    case body
    /// A keep-alive connection sat idle between requests.
    case idle
    /// The client did not take the response in time.
    case write
}
