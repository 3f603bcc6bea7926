/// `TOKENSWAP_STATE_URL` and its companions (CONTRACT §12 "Shared state"): where the state
/// every copy shares lives, and what happens when it cannot be reached. Nil in
/// `ServiceConfiguration.state` when the URL is unset: each copy keeps its state in its
/// own memory.
package struct StateSettings: Sendable {
    /// `redis://[[user]:password@]host[:port][/db]` or `rediss://…`, as configured: a
    /// secret, since it may carry the password.
    package let url: Secret
    /// `TOKENSWAP_STATE_PASSWORD`, used when the URL has none.
    package let password: Secret?
    /// `TOKENSWAP_STATE_TIMEOUT_MS`: every store call's deadline.
    package let timeoutMilliseconds: Int
    /// `TOKENSWAP_STATE_FAILURE`.
    package let failure: StateFailureMode
    /// Where state lives, for `check-config` and the start-up line: scheme, host, port
    /// and database, never the user or the password.
    package let location: String

    package init(
        url: Secret, password: Secret?, timeoutMilliseconds: Int, failure: StateFailureMode,
        location: String
    ) {
        self.url = url
        self.password = password
        self.timeoutMilliseconds = timeoutMilliseconds
        self.failure = failure
        self.location = location
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
