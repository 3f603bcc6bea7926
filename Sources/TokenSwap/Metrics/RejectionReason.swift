/// Why a request or connection was turned away before a handler answered: the `reason`
/// label of `tokenswap_http_rejections_total`.
package enum RejectionReason: String, Sendable, CaseIterable {
    /// Broke the framing rules or a size limit (details in the parse error series).
    case malformed
    case headerTimeout = "header_timeout"
    case bodyTimeout = "body_timeout"
    case idleTimeout = "idle_timeout"
    case writeTimeout = "write_timeout"
    /// Accepting paused at `maxConnections` (connections wait in the backlog).
    case connectionCap = "connection_cap"
    /// Accepting paused for lack of descriptors or memory.
    case acceptResources = "accept_resources"
    /// A request refused 503 because the body bytes in flight reached their budget.
    case bodyBudget = "body_budget"
    /// A connection closed at accept: its client address holds the most it may.
    case clientConnectionCap = "client_connection_cap"
    /// tokenswap's own per-client rate limit (`TOKENSWAP_RATE_LIMIT`).
    case rateLimited = "rate_limited"
}
