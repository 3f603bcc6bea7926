/// One signed-in user's tokens, for an app: the seeds' `getTokens` / `refreshToken` /
/// `invalidateToken` and Yoli's `authorizedRequest`, without their usual bugs.
///
/// - One refresh at a time, however many callers ask (single flight): they all wait for
///   the same answer, so a rotated refresh token is never lost to a second refresh that
///   raced with the first.
/// - The access token is refreshed `refreshSkewSeconds` before it expires, counted on the
///   local monotonic clock from when its answer arrived (never the wall clock).
/// - The `refresh_token` of every answer is stored before the new access token is handed
///   out: that is how key rotation and legacy migration (CONTRACT §4, §9) reach devices,
///   and a crash after a refresh cannot leave a dead token in storage.
/// - Only `invalid_grant` signs the user out. 429 waits `Retry-After`; 5xx and network
///   failures back off with jitter; the tokens are kept. A store that cannot be read at
///   launch is "unavailable", not "signed out".
///
/// - Every swap, refresh and device request carries a DPoP proof (RFC 9449, CONTRACT §13)
///   by the session's own key, made at sign-in and kept beside the credentials (`DPoPMode`);
///   tokenswap binds the refresh token to it, so a copy of the token without the key is
///   dead. A session whose key is gone signs out (`dpopKeyLost`) rather than send a token
///   that cannot work.
/// - When tokenswap says when the grant ends (`refresh_token_expires_in`, CONTRACT §14) the
///   session keeps it with the credentials, says so once ahead of time
///   (`grantEndingSoon`), and after it signs out (`grantExpired`) without asking.
///
/// Nothing here logs; `events` says what happened, without tokens, proofs or keys.
///
/// Calls that need a token, in AppAuth's spirit: `data(for:)` sends an API request with a
/// fresh token (and retries a 401 once), `authorize(_:)` only signs a request the app sends
/// itself, `accessToken()` is the bare token, and `invalidateAccessToken(_:)` is what such
/// an app calls when its API answered 401.
public actor TokenSession {
    public nonisolated let backend: TokenSwapBackend

    /// The name before issue 19, kept so existing apps compile.
    @available(*, deprecated, renamed: "backend")
    public nonisolated var service: TokenSwapBackend { backend }

    /// Refreshed, signed out (with the reason), transient failures: every event from this
    /// read on. Each read is a subscriber of its own, so a view model and a logger can both
    /// listen; take the stream before the calls whose events you want. A reader that falls
    /// more than 256 events behind loses the oldest. Leaving the loop (or cancelling its
    /// task) and dropping the stream unsubscribes it; the streams end with the session.
    public nonisolated var events: AsyncStream<TokenSessionEvent> { broadcast.subscribe() }

    let store: any CredentialStore
    /// Where the DPoP key lives; nil: no proofs (`DPoPMode.off`, or a store without one).
    let keyStore: (any DPoPKeyStore)?
    let configuration: TokenSessionConfiguration
    let clock: any SessionClock
    private let random: @Sendable (ClosedRange<Double>) -> Double
    nonisolated let broadcast = EventBroadcast<TokenSessionEvent>(bufferSize: 256)

    var state: SessionState = .notLoaded
    /// The one token-changing operation under way (a refresh, or storing an answer);
    /// everyone who needs a token meanwhile awaits it instead of starting another.
    private var inFlight: Task<Void, any Error>?
    /// The sign-out under way. While it is set no refresh or sign-in starts; callers wait
    /// for it. A refresh that began during the revocation would rotate the refresh token
    /// upstream, and its answer would come back to a session that had just been wiped:
    /// a live grant nobody holds and nobody revoked.
    private var signingOut: Task<TokenRevocation?, any Error>?
    /// How many callers wait for `signingOut` (tests use it to know a caller arrived).
    private(set) var callersAwaitingSignOut = 0
    private var backoff = RefreshBackoff()
    /// Bumped on every sign-in and sign-out, so an answer that arrives for an earlier
    /// session is not written over the current one.
    private var generation = 0
    /// Whether `grantEndingSoon` was sent for the current grant.
    var grantWarned = false

    /// `dpop`: where the session keeps its DPoP key; by default beside the credentials
    /// (`DPoPMode.automatic`).
    public init(
        backend: TokenSwapBackend, store: any CredentialStore,
        configuration: TokenSessionConfiguration = TokenSessionConfiguration(),
        dpop: DPoPMode = .automatic
    ) {
        self.init(
            backend: backend, store: store, configuration: configuration, dpop: dpop,
            clock: MonotonicSessionClock())
    }

    /// With a clock and a jitter of the test's own: seams, so `package`, not the app's API.
    package init(
        backend: TokenSwapBackend, store: any CredentialStore,
        configuration: TokenSessionConfiguration = TokenSessionConfiguration(),
        dpop: DPoPMode = .automatic, clock: any SessionClock,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) {
        self.backend = backend
        self.store = store
        switch dpop {
        case .automatic: self.keyStore = store.dpopKeyStore
        case .keyStore(let keyStore): self.keyStore = keyStore
        case .off: self.keyStore = nil
        }
        self.configuration = configuration
        self.clock = clock
        self.random = random
    }

    /// The label before issue 19, kept so existing apps compile.
    @available(*, deprecated, renamed: "init(backend:store:configuration:)")
    public init(
        service: TokenSwapBackend, store: any CredentialStore,
        configuration: TokenSessionConfiguration = TokenSessionConfiguration()
    ) {
        self.init(backend: service, store: store, configuration: configuration)
    }

    deinit {
        broadcast.finish()
    }

    /// Whether there is a session, loading the store on first use.
    public func status() async -> SessionStatus {
        try? await loadIfNeeded()
        try? await checkGrant()
        switch state {
        case .notLoaded, .storageUnavailable: return .storageUnavailable
        case .signedOut(let reason): return .signedOut(reason)
        case .signedIn: return .signedIn
        }
    }

    /// An access token fresh for at least `refreshSkewSeconds`, refreshing first if
    /// needed. While a refresh ahead of expiry fails transiently, the current token is
    /// returned as long as it has not expired.
    public func accessToken() async throws -> String {
        try await validAccessToken(refusing: nil).revealed
    }

    /// Signs in with a token answer (from `/v1/swap`, or an SDK that did the swap). Call
    /// it as soon as the answer arrives: its `expires_in` counts from now. Returns once
    /// the refresh token is stored; throws `storageUnavailable` if it could not be (the
    /// session keeps the tokens and stores them on the next call).
    ///
    /// The answer came from a request without this session's proof, so its refresh token
    /// is not bound to a key; the first refresh proves with the session's key and binds it
    /// (CONTRACT §13: adopting DPoP needs no new sign-in).
    public func signIn(with answer: TokenAnswer) async throws {
        try await signIn(with: answer, arrivedAt: clock.now(), boundTo: nil)
    }

    private func signIn(with answer: TokenAnswer, arrivedAt arrived: Double, boundTo key: DPoPKey?)
        async throws
    {
        let wallArrived = clock.wallNow()
        await awaitQuiet()
        generation += 1
        backoff.succeeded()
        grantWarned = false
        state = .signedIn(
            SessionTokens(
                answer, arrivedAt: arrived, wallArrivedAt: wallArrived,
                boundTo: key?.thumbprint))
        try await startAndAwait { try await self.storePending() }
        emit(.signedIn)
        warnIfGrantEndsSoon()
    }

    /// Swaps an authorization code (CONTRACT §2 `/v1/swap`), proved by the session's DPoP
    /// key (made now if there is none), and signs in with the answer.
    public func signIn(code: String, codeVerifier: String? = nil, redirectURI: String? = nil)
        async throws
    {
        await awaitQuiet()
        let key = try await keyForSignIn()
        let answer = try await backend.swap(
            code: code, codeVerifier: codeVerifier, redirectURI: redirectURI, dpopKey: key)
        try await signIn(with: answer, arrivedAt: clock.now(), boundTo: key)
    }

    /// The device flow for this session's provider and clock, proved by the session's DPoP
    /// key (made when the flow starts if there is none).
    public nonisolated var deviceFlow: DeviceFlow {
        DeviceFlow(backend: backend, clock: clock, dpopKey: { try await self.keyForSignIn() })
    }

    /// Waits for the user to approve a started device authorization, then signs in.
    public func signIn(approving started: DeviceFlow.Started) async throws {
        let answer = try await deviceFlow.waitForApproval(started)
        try await signIn(with: answer, arrivedAt: clock.now(), boundTo: started.dpopKey)
    }

    /// Returns once no sign-out and no token operation is under way: a sign-in comes after
    /// a sign-out (which would wipe it) and after the operation (whose answer it replaces).
    private func awaitQuiet() async {
        while signingOut != nil || inFlight != nil {
            await awaitSignOut()
            while let inFlight { _ = try? await inFlight.value }
        }
    }

    /// Signs out. With `revoking`, the tokens are revoked first, both of them (CONTRACT
    /// §8: a client signs out by revoking both of its tokens): the refresh token ends the
    /// grant at RFC 7009-style providers, and the access token is all a GitHub-style
    /// provider can revoke. After a relaunch only the refresh token is known (the access
    /// token was never stored) and the other is left to expire. If tokenswap cannot reach
    /// the provider the error is thrown and the tokens are kept, so the app can retry
    /// (RFC 7009 §2.2.1) or sign out without revoking. nil when nothing was revoked.
    ///
    /// From this call on no refresh starts until the sign-out has ended: callers that
    /// need a token wait for it, then get `signedOut` (or carry on when the revocation
    /// failed). A refresh already under way is waited for, so the tokens it brings are the
    /// ones revoked.
    @discardableResult
    public func signOut(revoking: Bool = true) async throws -> TokenRevocation? {
        await awaitSignOut()
        // Unstructured, like a refresh: its callers wait for it whether or not the task
        // that asked for it is cancelled meanwhile.
        let task = Task { try await self.performSignOut(revoking: revoking) }
        signingOut = task
        return try await task.value
    }

    /// `signingOut`. Clears it before its waiters resume.
    private func performSignOut(revoking: Bool) async throws -> TokenRevocation? {
        defer { signingOut = nil }
        while let inFlight { _ = try? await inFlight.value }
        try? await loadIfNeeded()
        var outcome: TokenRevocation? = nil
        if revoking, case .signedIn(let tokens) = state {
            outcome = try await revoke(tokens)
        }
        try await endSession(.userRequested)
        return outcome
    }

    /// The refresh token first (where it ends the grant, and for tokenswap's own
    /// revocation, CONTRACT §14), then the access token. `revoked` when either reached
    /// the provider.
    private func revoke(_ tokens: SessionTokens) async throws -> TokenRevocation? {
        var outcomes: [TokenRevocation] = []
        if let refresh = tokens.refresh {
            outcomes.append(try await backend.revoke(refresh, hint: "refresh_token"))
        }
        if let access = tokens.access {
            outcomes.append(try await backend.revoke(access, hint: "access_token"))
        }
        guard !outcomes.isEmpty else { return nil }
        return outcomes.contains(.revoked) ? .revoked : .unsupported
    }

    /// Returns once no sign-out is under way (one that failed leaves the session signed
    /// in; the caller looks at the state again).
    private func awaitSignOut() async {
        while let signingOut {
            callersAwaitingSignOut += 1
            _ = try? await signingOut.value
            callersAwaitingSignOut -= 1
        }
    }

    /// Whether a sign-out is under way.
    var isSigningOut: Bool { signingOut != nil }

    /// Asks tokenswap whether the current access token is active (RFC 7662 shape): the
    /// seeds' `tokenIsValid`.
    public func introspect() async throws -> Introspection {
        try await backend.introspect(validAccessToken(refusing: nil))
    }

    // MARK: - The token, refreshed at most once at a time

    /// `refusing`: an access token an API just answered 401 to; a different current
    /// token (someone refreshed meanwhile) is returned as it is, the same one is replaced.
    func validAccessToken(refusing refused: RedactedToken?) async throws -> RedactedToken {
        var refreshed = false
        // Each turn either returns, throws, or completes one real operation that changes
        // the state; a few turns cover a sign-in racing with a refresh.
        for _ in 0..<4 {
            try await loadIfNeeded()
            // No refresh starts during a sign-out (`signingOut`); nothing below suspends
            // before the refresh is `inFlight`, so none can start after this check.
            if signingOut != nil {
                await awaitSignOut()
                continue
            }
            if let inFlight {
                do {
                    try await inFlight.value
                } catch let error as TokenSwapClientError {
                    if let usable = usableDuringFailure(error, refusing: refused) { return usable }
                    throw error
                }
                refreshed = true
                continue
            }
            try await checkGrant()
            guard case .signedIn(let tokens) = state else { throw stateError }
            if !tokens.refreshStored {
                try await startAndAwait { try await self.storePending() }
                continue
            }
            if let access = tokens.access, access != refused,
                refreshed || isFresh(tokens, at: clock.now())
            {
                return access
            }
            if let wait = backoff.remaining(at: clock.now()) {
                let error = TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: wait)
                if let usable = usableDuringFailure(error, refusing: refused) { return usable }
                throw error
            }
            do {
                try await startAndAwait { try await self.refresh() }
            } catch let error as TokenSwapClientError {
                if let usable = usableDuringFailure(error, refusing: refused) { return usable }
                throw error
            }
            refreshed = true
        }
        throw TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 1)
    }

    private func startAndAwait(_ operation: @escaping @Sendable () async throws -> Void)
        async throws
    {
        // Unstructured on purpose: a caller that is cancelled must not cancel a refresh
        // whose rotated token has to be stored for everyone else.
        let task = Task { try await operation() }
        inFlight = task
        try await task.value
    }

    /// One refresh (`inFlight`). Clears `inFlight` before its waiters resume.
    private func refresh() async throws {
        defer { inFlight = nil }
        guard case .signedIn(let tokens) = state, let refreshToken = tokens.refresh else {
            // Signed out whether or not the (already empty) store answers.
            try? await endSession(.noRefreshToken)
            throw TokenSwapClientError.signedOut(.noRefreshToken)
        }
        let session = generation
        let key: DPoPKey?
        switch await refreshKey(for: tokens) {
        case .use(let usable):
            key = usable
        case .lost:
            guard session == generation else { return }
            try? await endSession(.dpopKeyLost)
            throw TokenSwapClientError.signedOut(.dpopKeyLost)
        case .unavailable:
            guard session == generation else { return }
            emit(
                .transientFailure(
                    TransientFailure(kind: .storageUnavailable, retryAfterSeconds: nil)))
            throw TokenSwapClientError.storageUnavailable
        }
        guard session == generation else { return }
        let answer: TokenAnswer
        do {
            answer = try await backend.refresh(refreshToken, dpopKey: key)
        } catch {
            guard session == generation else { return }
            throw try await refreshFailed(error)
        }
        guard session == generation else { return }
        backoff.succeeded()
        // Held in memory at once (the old refresh token may be dead now that it rotated)
        // but not handed out until stored. A proof binds the answer to its key (or keeps
        // it bound); without one the binding stays what it was.
        state = .signedIn(
            SessionTokens(
                answer, arrivedAt: clock.now(), wallArrivedAt: clock.wallNow(),
                keeping: refreshToken, boundTo: key?.thumbprint ?? tokens.dpopKeyThumbprint))
        try await storeTokens(of: session)
        emit(.refreshed(expiresInSeconds: answer.expiresInSeconds))
        warnIfGrantEndsSoon()
    }

    /// Stores a sign-in's refresh token (`inFlight`).
    private func storePending() async throws {
        defer { inFlight = nil }
        try await storeTokens(of: generation)
    }

    private func storeTokens(of session: Int) async throws {
        guard case .signedIn(let tokens) = state, !tokens.refreshStored else { return }
        do {
            if let credentials = tokens.stored {
                try await store.save(credentials)
            } else {
                try await store.remove()
            }
        } catch {
            if session == generation {
                emit(
                    .transientFailure(
                        TransientFailure(kind: .storageUnavailable, retryAfterSeconds: nil)))
            }
            throw TokenSwapClientError.storageUnavailable
        }
        guard session == generation, case .signedIn(var current) = state,
            current.refresh == tokens.refresh
        else { return }
        current.refreshStored = true
        state = .signedIn(current)
    }

    /// What a failed refresh means. Only `invalid_grant` ends the session.
    private func refreshFailed(_ error: any Error) async throws -> TokenSwapClientError {
        let kind: TransientFailure.Kind
        var retryAfter: Double? = nil
        switch error {
        case TokenSwapClientError.rejected(let answer)
        where answer.error == "invalid_grant" && (400..<500).contains(answer.status):
            try? await endSession(.invalidGrant)
            return .signedOut(.invalidGrant)
        case TokenSwapClientError.rejected(let answer) where answer.status == 429:
            kind = .throttled
            retryAfter = answer.retryAfterSeconds
        case TokenSwapClientError.rejected(let answer) where answer.status >= 500:
            kind = .serverError(status: answer.status)
            retryAfter = answer.retryAfterSeconds
        case TokenSwapClientError.rejected(let answer):
            kind = .rejected(status: answer.status, error: answer.error)
        case TokenSwapClientError.unexpectedAnswer(let status):
            kind = .serverError(status: status)
        case is CancellationError:
            throw error
        default:
            kind = .network
        }
        let wait = backoff.failed(
            at: clock.now(), retryAfterSeconds: retryAfter, configuration: configuration,
            random: random)
        emit(.transientFailure(TransientFailure(kind: kind, retryAfterSeconds: wait)))
        return .temporarilyUnavailable(retryAfterSeconds: wait)
    }

    /// The session is over: memory first (nothing more is handed out), then the store.
    /// The DPoP key goes with the tokens: the next sign-in is a new session with a new key.
    func endSession(_ reason: SignOutReason) async throws {
        generation += 1
        backoff.succeeded()
        state = .signedOut(reason)
        emit(.signedOut(reason))
        var removed = true
        do {
            try await store.remove()
        } catch {
            removed = false
        }
        // Best effort: a key left behind is bound to nothing live, and the next sign-in
        // uses it as its own.
        try? await keyStore?.remove()
        guard removed else { throw TokenSwapClientError.storageUnavailable }
    }

    // MARK: - State

    func loadIfNeeded() async throws {
        switch state {
        case .notLoaded, .storageUnavailable: break
        case .signedOut, .signedIn: return
        }
        let session = generation
        let stored: StoredCredentials?
        do {
            stored = try await store.loadCredentials()
        } catch {
            guard session == generation else { return }
            state = .storageUnavailable
            emit(
                .transientFailure(
                    TransientFailure(kind: .storageUnavailable, retryAfterSeconds: nil)))
            throw TokenSwapClientError.storageUnavailable
        }
        // Another caller loaded, or the app signed in, while this load was under way.
        guard session == generation, !state.isLoaded else { return }
        state =
            stored.map { .signedIn(SessionTokens(stored: $0)) }
            ?? .signedOut(.neverSignedIn)
    }

    private func isFresh(_ tokens: SessionTokens, at now: Double) -> Bool {
        guard let expiresAt = tokens.accessExpiresAt else { return true }
        return now < expiresAt - configuration.refreshSkewSeconds
    }

    /// During a transient failure of a refresh ahead of expiry, the current access token
    /// is still good until it expires (not when an API has just refused it).
    private func usableDuringFailure(
        _ error: TokenSwapClientError, refusing refused: RedactedToken?
    )
        -> RedactedToken?
    {
        guard case .temporarilyUnavailable = error, case .signedIn(let tokens) = state,
            tokens.refreshStored, let access = tokens.access, access != refused
        else { return nil }
        guard let expiresAt = tokens.accessExpiresAt else { return access }
        return clock.now() < expiresAt ? access : nil
    }

    private var stateError: TokenSwapClientError {
        switch state {
        case .signedOut(let reason): .signedOut(reason)
        case .notLoaded, .storageUnavailable, .signedIn: .storageUnavailable
        }
    }

    func emit(_ event: TokenSessionEvent) {
        broadcast.yield(event)
    }
}
