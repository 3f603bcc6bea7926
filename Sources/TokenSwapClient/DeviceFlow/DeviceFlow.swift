/// The device authorization grant from the device's side (RFC 8628 §3.4–§3.5): the
/// seeds' `obtainUserCode` then `getTokens` in a loop, done once, right.
///
/// With a DPoP key (a session's flow has its own), the device code is bound to it and
/// every poll is proved by it (CONTRACT §13), so the tokens it brings are bound too.
public struct DeviceFlow: Sendable {
    let backend: TokenSwapBackend
    let clock: any SessionClock
    /// The key to prove with, asked for when a flow starts (a session makes its key then).
    let dpopKey: @Sendable () async throws -> DPoPKey?

    /// `dpopKey`: prove every request with it; nil, none.
    public init(backend: TokenSwapBackend, dpopKey: DPoPKey? = nil) {
        self.init(backend: backend, clock: MonotonicSessionClock(), dpopKey: { dpopKey })
    }

    /// With a clock of the test's own (a seam, so `package`).
    package init(
        backend: TokenSwapBackend, clock: any SessionClock,
        dpopKey: @escaping @Sendable () async throws -> DPoPKey? = { nil }
    ) {
        self.backend = backend
        self.clock = clock
        self.dpopKey = dpopKey
    }

    /// The label before issue 19, kept so existing apps compile.
    @available(*, deprecated, renamed: "init(backend:)")
    public init(service: TokenSwapBackend) {
        self.init(backend: service)
    }

    /// Asks for a user code. Show `userCode` and `verificationURI` (or
    /// `verificationURIComplete`), then call `waitForApproval` with the same value.
    public func start(scope: String? = nil) async throws -> Started {
        let key = try await dpopKey()
        let authorization = try await backend.startDeviceAuthorization(scope: scope, dpopKey: key)
        return Started(authorization: authorization, receivedAt: clock.now(), dpopKey: key)
    }

    /// Polls until the user approves (the tokens), declines (`accessDenied`), or the code
    /// expires (`deviceAuthorizationExpired`). Polls every `interval` seconds;
    /// `slow_down` adds 5 s to this and every later interval (RFC 8628 §3.5), as does a
    /// larger `interval` in an answer. Any other error stops the flow: it is thrown.
    public func waitForApproval(_ started: Started) async throws -> TokenAnswer {
        let authorization = started.authorization
        let deadline = started.receivedAt + Double(authorization.expiresInSeconds)
        var interval = authorization.intervalSeconds
        while true {
            guard clock.now() + Double(interval) < deadline else {
                throw TokenSwapClientError.deviceAuthorizationExpired
            }
            try await clock.sleep(seconds: Double(interval))
            do {
                return try await backend.pollDeviceToken(
                    authorization.deviceCode, dpopKey: started.dpopKey)
            } catch TokenSwapClientError.rejected(let answer) {
                switch answer.error {
                case "authorization_pending":
                    interval = max(interval, answer.intervalSeconds ?? 0)
                case "slow_down":
                    // Saturating: an app's own DeviceSignIn may start at Int.max.
                    let (slower, overflow) = interval.addingReportingOverflow(5)
                    interval = max(overflow ? .max : slower, answer.intervalSeconds ?? 0)
                case "access_denied":
                    throw TokenSwapClientError.accessDenied
                case "expired_token":
                    throw TokenSwapClientError.deviceAuthorizationExpired
                default:
                    throw TokenSwapClientError.rejected(answer)
                }
            }
        }
    }

    /// A device authorization and when its answer arrived on the local clock, which is
    /// what `expires_in` counts from.
    public struct Started: Sendable, Hashable {
        public let authorization: DeviceSignIn
        public let receivedAt: Double
        /// The key the device code is bound to, which proves every poll; nil: none.
        let dpopKey: DPoPKey?
    }
}
