import RESPClient

/// `TOKENSWAP_STATE_URL` and its companions (CONTRACT §12 "Shared state"): where the state
/// every copy shares lives, and what happens when it cannot be reached. Nil in
/// `ServiceConfiguration.state` when the URL is unset: each copy keeps its state in its
/// own memory.
package struct StateSettings: Sendable {
    /// The store's address, database, user and password (`TOKENSWAP_STATE_URL`, with
    /// `TOKENSWAP_STATE_PASSWORD` when the URL has none): its description never holds
    /// the password.
    package let endpoint: RESPEndpoint
    /// `TOKENSWAP_STATE_TIMEOUT_MS`: every store call's deadline.
    package let timeoutMilliseconds: Int
    /// `TOKENSWAP_STATE_FAILURE`.
    package let failure: StateFailureMode

    package init(endpoint: RESPEndpoint, timeoutMilliseconds: Int, failure: StateFailureMode) {
        self.endpoint = endpoint
        self.timeoutMilliseconds = timeoutMilliseconds
        self.failure = failure
    }

    /// Where state lives, for `check-config`, the start-up line and the outage lines:
    /// scheme, host, port and database, never the user or the password.
    package var location: String {
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        return
            "\(endpoint.usesTLS ? "rediss" : "redis")://\(host):\(endpoint.port)/\(endpoint.database)"
    }

    /// `timeoutMilliseconds` as a `Duration`.
    package var timeout: Duration { .milliseconds(timeoutMilliseconds) }
}

/// `TOKENSWAP_STATE_FAILURE` (CONTRACT §12 "When the store fails").
package enum StateFailureMode: String, Sendable, Hashable, CaseIterable {
    /// Each feature falls back to the copy's own memory until the store is back (the
    /// default: limits and the replay window become per copy).
    case open
    /// Requests that need the store (refreshes, device polls, revocations) answer `503
    /// temporarily_unavailable` with `Retry-After`, and `/readyz` answers 503.
    case closed
}
