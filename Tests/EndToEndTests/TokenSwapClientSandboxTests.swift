import Foundation
import Synchronization
import TestSupport
import Testing
import TokenSwapClient

/// The client kit (CONTRACT §11) against the real `tokenswap serve --sandbox`, over
/// `URLSessionTransport`: sign in with a swap, refresh with rotation, and the sandbox's
/// failure values, each ending as the contract says a client must end it.
@Suite(.serialized, .resourceClass(.processes)) struct TokenSwapClientSandboxTests {
    /// A session whose skew is the token's whole lifetime: every `accessToken()` refreshes
    /// once, so a test can drive the real refresh path without waiting an hour.
    static func session(
        _ server: TokenSwapProcess, store: any CredentialStore = MemoryCredentialStore(),
        skewSeconds: Double = 3600
    ) throws -> TokenSession {
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        return TokenSession(
            backend: TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base)),
            store: store,
            configuration: TokenSessionConfiguration(refreshSkewSeconds: skewSeconds))
    }

    static func refreshes(_ server: TokenSwapProcess, status: Int) -> Int {
        server.standardOutput.split(separator: "\n").filter {
            $0.contains("path=/v1/refresh ") && $0.hasSuffix("status=\(status)")
        }.count
    }

    @Test func swapThenRefreshRotatesAndTheStoreFollowsAcrossARelaunch() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let directory = NSTemporaryDirectory() + "tokenswap-client-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileCredentialStore(path: directory + "/session")

        let session = try Self.session(server, store: store, skewSeconds: 60)
        try await session.signIn(code: try await SandboxFlowTests.authorize(server.port))
        let swapped = try #require(try await store.load())
        let first = try await session.accessToken()
        expectQuietly(first.hasPrefix("sba-"), "a sandbox access token")

        // The app relaunches; the refresh token in the file is all that survived.
        let relaunched = try Self.session(server, store: store)
        let second = try await relaunched.accessToken()
        let rotated = try #require(try await store.load())
        expectQuietly(second != first, "a new access token")
        #expect(rotated != swapped)
        // The sandbox revoked the token it rotated away from, but a retry of it inside
        // the replay window (an answer the app lost) gets the kept answer (CONTRACT §12).
        // The session bound its tokens to its DPoP key (CONTRACT §13): without a proof by
        // that key the old token is refused, with one it is the retry.
        await #expect(throws: TokenSwapClientError.self) {
            try await relaunched.backend.refresh(swapped)
        }
        let key = try #require(try await store.dpopKeyStore?.load())
        let retried = try await relaunched.backend.refresh(swapped, dpopKey: key)
        expectQuietly(retried.accessToken.revealed == second, "the kept access token")
        #expect(retried.refreshToken == rotated)
        expectQuietly(try await relaunched.accessToken() != second, "a new access token")
        #expect(try await store.load() != rotated)
        #expect(Self.refreshes(server, status: 200) == 3)

        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.standardOutput, server.standardError],
            [first, second, swapped.revealed, rotated.revealed])
    }

    /// CONTRACT §14's lifetime as an app sees it: the sandbox's grants last 100 s here, so
    /// the session knows the time left from the swap and warns once that the end is near
    /// (the default warning is a week before), before any refresh is refused.
    @Test func theGrantsLifetimeReachesTheAppAsTimeLeftAndOneWarning() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"],
            environment: ["TOKENSWAP_SPOTIFY_REFRESH_TOKEN_LIFETIME_SECONDS": "100"])
        let session = try Self.session(server)
        let events = session.events
        try await session.signIn(code: try await SandboxFlowTests.authorize(server.port))
        _ = try await session.accessToken()
        let left = try #require(await session.grantTimeLeftSeconds())
        #expect(left > 0 && left <= 100, "\(left)")
        _ = await session.status()
        // What the session said so far (the stream keeps it), read until both the warning
        // and the refresh are in (or the poll's limit passes: the checks below then say
        // what was seen).
        final class Said: Sendable { let events = Mutex<[TokenSessionEvent]>([]) }
        let said = Said()
        let reader = Task {
            for await event in events { said.events.withLock { $0.append(event) } }
        }
        try? await pollUntil(every: .milliseconds(10)) {
            said.events.withLock { seen in
                seen.contains { if case .grantEndingSoon = $0 { true } else { false } }
                    && seen.contains { if case .refreshed = $0 { true } else { false } }
            }
        }
        reader.cancel()
        let seen = said.events.withLock { $0 }
        let warnings = seen.compactMap { event -> Double? in
            if case .grantEndingSoon(let seconds) = event { seconds } else { nil }
        }
        #expect(warnings.count == 1, "\(seen)")
        #expect(warnings.allSatisfy { $0 > 0 && $0 <= 100 })
        #expect(await session.status() == .signedIn)
        #expect(try await server.stop() == 0)
    }

    @Test func fiftyConcurrentCallersMakeOneRefresh() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let session = try Self.session(server, store: store)
        try await session.signIn(code: try await SandboxFlowTests.authorize(server.port))
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await session.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        // One refresh answered everyone; a second one, with the rotated-away token, would
        // have been invalid_grant and signed the user out.
        #expect(tokens.count == 1)
        #expect(await session.status() == .signedIn)
        #expect(try await server.stop() == 0)
        #expect(Self.refreshes(server, status: 200) == 1)
        #expect(Self.refreshes(server, status: 400) == 0)
    }

    @Test func anExpiredRefreshTokenSignsOutAndWipes() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let session = try Self.session(server, store: store)
        try await session.signIn(code: "sandbox-refresh-expired")
        #expect(try await store.load() != nil)
        await #expect(throws: TokenSwapClientError.signedOut(.invalidGrant)) {
            try await session.accessToken()
        }
        #expect(try await store.load() == nil)
        #expect(await session.status() == .signedOut(.invalidGrant))
        #expect(try await server.stop() == 0)
    }

    @Test(
        arguments: [
            ("sandbox-refresh-429", 7.0, TransientFailure.Kind.throttled),
            ("sandbox-refresh-500", 1.0, .serverError(status: 502)),
        ] as [(String, Double, TransientFailure.Kind)])
    func aTransientFailureKeepsTheTokens(code: String, wait: Double, kind: TransientFailure.Kind)
        async throws
    {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        // Jitter at the top of its range, so the 5xx backoff is exactly the first step.
        let session = TokenSession(
            backend: TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base)),
            store: store, configuration: TokenSessionConfiguration(refreshSkewSeconds: 3600),
            clock: MonotonicSessionClock(), random: { $0.upperBound })
        // Subscribed first: a stream has the events from its subscription on.
        let subscription = session.events
        try await session.signIn(code: code)
        let stored = try await store.load()
        // A refresh ahead of expiry failed: the access token is still good, so it is used.
        let access = try await session.accessToken()
        expectQuietly(access.hasPrefix("sba-"), "a sandbox access token")
        // An API refused it: now there is nothing to hand out until the backoff ends.
        do {
            _ = try await session.invalidateAccessToken(access)
            Issue.record("expected temporarilyUnavailable")
        } catch TokenSwapClientError.temporarilyUnavailable(let seconds) {
            #expect(seconds <= wait && seconds > wait - 2)
        }
        #expect(Self.refreshes(server, status: 200) == 0)
        #expect(try await store.load() == stored)
        #expect(await session.status() == .signedIn)
        var events: [TokenSessionEvent] = []
        for await event in subscription {
            events.append(event)
            if events.count == 2 { break }
        }
        #expect(
            events == [
                .signedIn, .transientFailure(TransientFailure(kind: kind, retryAfterSeconds: wait)),
            ])
        #expect(try await server.stop() == 0)
    }

    @Test func aSignInWithoutARefreshTokenEndsAtExpiry() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore(RedactedToken("an earlier user's token"))
        let fresh = try Self.session(server, store: store, skewSeconds: 60)
        try await fresh.signIn(code: "sandbox-no-refresh")
        #expect(try await store.load() == nil)
        expectQuietly(try await fresh.accessToken().hasPrefix("sba-"), "a sandbox access token")
        // The same answer seen by a session that counts it as expired already.
        let expiring = try Self.session(server, store: store)
        try await expiring.signIn(code: "sandbox-no-refresh")
        await #expect(throws: TokenSwapClientError.signedOut(.noRefreshToken)) {
            try await expiring.accessToken()
        }
        #expect(Self.refreshes(server, status: 200) == 0)
        #expect(try await server.stop() == 0)
    }

    @Test func aStringExpiresInIsAnInteger() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let service = TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base))
        #expect(try await service.swap(code: "sandbox-string-expiry").expiresInSeconds == 3600)
        #expect(try await server.stop() == 0)
    }
}

/// `#expect` for a condition on a real token: swift-testing prints the values of the
/// expressions an expectation compares when it fails, and a token must not reach the test
/// output, so only the outcome and `what` are shown.
func expectQuietly(
    _ condition: Bool, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(condition, what, sourceLocation: sourceLocation)
}
