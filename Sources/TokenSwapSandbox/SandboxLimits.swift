import TokenSwap

/// The sandbox's bounds: how long grants live and how many it keeps. Nothing a client
/// sends can grow its memory past these caps; at a cap the oldest grant is dropped.
package struct SandboxLimits: Sendable {
    package var codeLifetimeSeconds: Double = 600
    package var refreshTokenLifetimeSeconds: Double = 24 * 3600
    /// The `expires_in` of issued access tokens.
    package var accessTokenLifetimeSeconds: Int = 3600
    package var maxOutstandingCodes: Int = 1000
    package var maxRefreshTokens: Int = 10_000
    /// Issued access tokens remembered for introspection and revocation.
    package var maxAccessTokens: Int = 10_000
    /// How long a device code and its user code live (RFC 8628 §3.2 `expires_in`).
    package var deviceCodeLifetimeSeconds: Int = 600
    /// The polling `interval` the sandbox asks for: 1 s rather than RFC 8628's default 5,
    /// so a walk-through takes seconds; tokenswap still enforces it (local slow_down).
    package var deviceIntervalSeconds: Int = 1
    /// How long `sandbox-slow` waits when called over HTTP (`POST /sandbox/token`);
    /// in process it waits for the caller's upstream deadline instead.
    package var slowAnswerSeconds: Double = 15
    /// `Retry-After` of the `sandbox-429` answers.
    package var retryAfterSeconds: Int = 7
    /// `POST /sandbox/token` per client address: it checks client secrets (the real ones,
    /// when they are configured), so unthrottled it is a secret-guessing oracle.
    package var tokenRequestsPerSecond: Double = 5
    package var tokenRequestBurst: Int = 10
    /// Wrong user codes typed on the verification page per client address a minute, then
    /// `429`: 8 letters of 20 are guessable only without a limit (RFC 8628 §5.1).
    package var wrongUserCodesPerMinute: Double = 10

    package init() {}
}
