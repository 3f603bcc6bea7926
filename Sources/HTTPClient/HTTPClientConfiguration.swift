import HTTPCore

/// The client's limits and deadlines, with their defaults in one place. There is no
/// connect or handshake timeout: each request's deadline bounds every phase of its
/// exchange, name lookup to answer (CONTRACT §5), so none can be set shorter here.
package struct HTTPClientConfiguration: Sendable {
    /// Open connections per origin (idle + busy); more requests wait in a queue.
    package var maxConnectionsPerOrigin: Int = 32
    /// Requests that may wait for a connection per origin before `poolExhausted`.
    package var maxWaitersPerOrigin: Int = 1024
    /// An idle pooled connection is closed after this long unused.
    package var idleTimeoutSeconds: Double = 30
    /// Sizes the response parser enforces: the head's limits as a server's, and a 1 MiB
    /// body, decoded (token responses are small; anything bigger is not one).
    package var responseLimits = HTTPLimits.upstreamResponse
    /// How long a name resolution result is reused.
    package var dnsCacheSeconds: Double = 30
    /// An extra PEM bundle of CAs trusted in addition to the system store
    /// (`TOKENSWAP_CA_FILE`). Verification is always on; this only adds trust.
    package var extraCAFilePath: String? = nil

    package init() {}
}
