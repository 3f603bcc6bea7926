import Foundation
import Synchronization
import TestSupport
import Testing
import TokenSwapClient

/// The client kit's device flow (RFC 8628, CONTRACT §7) against the real
/// `tokenswap serve --sandbox`: the user approves or denies on the sandbox's verification
/// page (`POST /sandbox/device`), and the sandbox's magic scopes end the polling the
/// other ways.
@Suite(.serialized, .resourceClass(.processes)) struct TokenSwapClientDeviceFlowTests {
    /// The user's side (the sandbox's verification page, as its form posts).
    static func decide(_ userCode: RedactedToken, approve: Bool, port: UInt16) async throws {
        let answer = try await DeviceFlow.decide(
            port, userCode: userCode.revealed, approve: approve)
        #expect(answer.status == 200)
    }

    @Test func approvedOnTheSandboxPageSignsIn() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let store = MemoryCredentialStore()
        let session = try TokenSwapClientSandboxTests.session(server, store: store, skewSeconds: 60)
        let started = try await session.deviceFlow.start()
        let authorization = started.authorization
        #expect(authorization.verificationURI.path == "/sandbox/device")
        let complete = try #require(authorization.verificationURIComplete?.absoluteString)
        expectQuietly(
            complete.hasSuffix("?user_code=" + authorization.userCode.revealed),
            "the complete URI carries the user code")
        #expect(authorization.intervalSeconds == 1)

        let waiting = Task { try await session.signIn(approving: started) }
        // Approved only once the flow has polled and heard "pending".
        let series = #"tokenswap_device_polls_total{provider="spotify",outcome="#
        try await pollUntil(every: .milliseconds(100)) {
            try await DeviceFlow.metric(server.port, series + #""pending"}"#) >= 1
        }
        try await Self.decide(authorization.userCode, approve: true, port: server.port)
        try await waiting.value
        // Polls every second, and tokenswap never had to slow it down: the metric below
        // says it exactly (a bound on the time, 6 s where a slow_down would take 6.5, failed
        // once on a machine that stalled).

        let access = try await session.accessToken()
        expectQuietly(access.hasPrefix("sba-"), "a sandbox access token")
        let refresh = try #require(try await store.load())
        #expect(try await DeviceFlow.metric(server.port, series + #""approved"}"#) == 1)
        #expect(try await DeviceFlow.metric(server.port, series + #""slow_down_local"}"#) == 0)
        #expect(try await server.stop() == 0)
        expectNoSecrets(
            in: [server.output],
            [access, refresh.revealed, authorization.deviceCode.revealed])
    }

    @Test func deniedOnTheSandboxPageIsAccessDenied() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let session = try TokenSwapClientSandboxTests.session(server)
        let started = try await session.deviceFlow.start()
        try await Self.decide(started.authorization.userCode, approve: false, port: server.port)
        await #expect(throws: TokenSwapClientError.accessDenied) {
            try await session.signIn(approving: started)
        }
        #expect(await session.status() == .signedOut(.neverSignedIn))
        #expect(try await server.stop() == 0)
    }

    @Test(
        arguments: [
            ("sandbox-deny", TokenSwapClientError.accessDenied),
            ("sandbox-expire", .deviceAuthorizationExpired),
        ])
    func theSandboxsMagicScopesEndThePolling(scope: String, error: TokenSwapClientError)
        async throws
    {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let session = try TokenSwapClientSandboxTests.session(server)
        let started = try await session.deviceFlow.start(scope: scope)
        await #expect(throws: error) { try await session.signIn(approving: started) }
        #expect(try await server.stop() == 0)
    }

    /// `slow_down` adds 5 s to this and every later poll (RFC 8628 §3.5): the waits are
    /// 1 s, then 6 s, then 11 s (the test stops it there).
    @Test func slowDownAddsFiveSecondsForGood() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let clock = RecordingClock()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let flow = TokenSwapClient.DeviceFlow(
            backend: TokenSwapBackend(endpoints: try TokenSwapEndpoints(baseURL: base)),
            clock: clock)
        let started = try await flow.start(scope: "sandbox-slow-down")
        let polling = Task { try await flow.waitForApproval(started) }
        try await pollUntil(every: .milliseconds(100)) { clock.sleeps.count >= 3 }
        polling.cancel()
        _ = try? await polling.value
        #expect(clock.sleeps.prefix(3) == [1, 6, 11])
        #expect(try await server.stop() == 0)
    }
}

/// The real clock, writing down every wait it is asked for. Its waits are real because
/// time itself is what is tested: the real binary answers a poll that comes sooner than
/// the interval with `slow_down`.
final class RecordingClock: SessionClock {
    private let clock = MonotonicSessionClock()
    private let recorded = Mutex<[Double]>([])

    func now() -> Double { clock.now() }

    func sleep(seconds: Double) async throws {
        recorded.withLock { $0.append(seconds) }
        try await clock.sleep(seconds: seconds)
    }

    var sleeps: [Double] { recorded.withLock { $0 } }
}
