import TokenSwap

/// The sandbox's bounds: how long grants live and how many it keeps. Nothing a client
/// sends can grow its memory past these caps; at a cap the oldest grant is dropped.
public struct SandboxLimits: Sendable {
    public var codeLifetimeSeconds: Double = 600
    public var refreshTokenLifetimeSeconds: Double = 24 * 3600
    /// The `expires_in` of issued access tokens.
    public var accessTokenLifetimeSeconds: Int = 3600
    public var maxOutstandingCodes: Int = 1000
    public var maxRefreshTokens: Int = 10_000
    /// Issued access tokens remembered for introspection and revocation.
    public var maxAccessTokens: Int = 10_000
    /// How long a device code and its user code live (RFC 8628 §3.2 `expires_in`).
    public var deviceCodeLifetimeSeconds: Int = 600
    /// The polling `interval` the sandbox asks for: 1 s rather than RFC 8628's default 5,
    /// so a walk-through takes seconds; tokenswap still enforces it (local slow_down).
    public var deviceIntervalSeconds: Int = 1
    /// How long `sandbox-slow` waits when called over HTTP (`POST /sandbox/token`);
    /// in process it waits for the caller's upstream deadline instead.
    public var slowAnswerSeconds: Double = 15
    /// `Retry-After` of the `sandbox-429` answers.
    public var retryAfterSeconds: Int = 7
    /// `POST /sandbox/token` per client address: it checks client secrets (the real ones,
    /// when they are configured), so unthrottled it is a secret-guessing oracle.
    public var tokenRequestsPerSecond: Double = 5
    public var tokenRequestBurst: Int = 10
    /// Wrong user codes typed on the verification page per client address a minute, then
    /// `429`: 8 letters of 20 are guessable only without a limit (RFC 8628 §5.1).
    public var wrongUserCodesPerMinute: Double = 10

    public init() {}
}
