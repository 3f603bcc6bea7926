/// The device authorization grant from the device's side (RFC 8628 §3.4–§3.5): the
/// seeds' `obtainUserCode` then `getTokens` in a loop, done once, right.
public struct DeviceFlow: Sendable {
    let backend: TokenSwapBackend
    let clock: any SessionClock

    public init(backend: TokenSwapBackend) {
        self.init(backend: backend, clock: MonotonicSessionClock())
    }

    /// With a clock of the test's own (a seam, so `package`).
    package init(backend: TokenSwapBackend, clock: any SessionClock) {
        self.backend = backend
        self.clock = clock
    }

    /// The label before issue 19, kept so existing apps compile.
    @available(*, deprecated, renamed: "init(backend:)")
    public init(service: TokenSwapBackend) {
        self.init(backend: service)
    }

    /// Asks for a user code. Show `userCode` and `verificationURI` (or
    /// `verificationURIComplete`), then call `waitForApproval` with the same value.
    public func start(scope: String? = nil) async throws -> Started {
        let authorization = try await backend.startDeviceAuthorization(scope: scope)
        return Started(authorization: authorization, receivedAt: clock.now())
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
                return try await backend.pollDeviceToken(authorization.deviceCode)
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
    }
}
