import Foundation
import Testing
import TokenSwapClient

/// RFC 8628 §3.4–§3.5 polling, on the manual clock (its sleeps are the poll schedule).
@Suite struct DeviceFlowTests {
    static let started =
        #"{"device_code":"dc-secret","user_code":"WDJB-MJHT","verification_uri":"https://t.test/device","verification_uri_complete":"https://t.test/device?user_code=WDJB-MJHT","expires_in":60,"interval":5}"#
    static func error(_ code: String, interval: Int? = nil) -> FakeTokenSwap.Reply {
        let extra = interval.map { #","interval":\#($0)"# } ?? ""
        return .answer(status: 400, body: #"{"error":"\#(code)"\#(extra)}"#)
    }
    static let tokens = FakeTokenSwap.Reply.answer(
        status: 200,
        body: #"{"access_token":"dev-access","expires_in":3600,"refresh_token":"dev-refresh"}"#)

    @Test func startReadsTheUserCodeAndURIs() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/device/code", .answer(status: 200, body: Self.started))
        let started = try await fixture.session.deviceFlow.start(scope: "read write")
        let authorization = started.authorization
        #expect(authorization.userCode.revealed == "WDJB-MJHT")
        #expect(authorization.deviceCode.revealed == "dc-secret")
        #expect(authorization.verificationURI.absoluteString == "https://t.test/device")
        #expect(
            authorization.verificationURIComplete?.absoluteString
                == "https://t.test/device?user_code=WDJB-MJHT")
        #expect(authorization.expiresInSeconds == 60)
        #expect(authorization.intervalSeconds == 5)
        #expect(await fixture.server.requests.last?.form == ["scope": "read write"])
    }

    @Test func pollsAtTheIntervalAndSlowDownAddsFiveSecondsForGood() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/device/code", .answer(status: 200, body: Self.started))
        await fixture.server.script(
            "/v1/device/token", Self.error("authorization_pending"), Self.error("slow_down"),
            Self.error("authorization_pending"), Self.error("slow_down"), Self.tokens)
        let started = try await fixture.session.deviceFlow.start()
        try await fixture.session.signIn(approving: started)
        #expect(fixture.clock.sleeps == [5, 5, 10, 10, 15])
        #expect(
            await fixture.server.requests.filter { $0.path == "/v1/device/token" }.allSatisfy {
                $0.form == ["device_code": "dc-secret"]
            })
        #expect(try await fixture.session.accessToken() == "dev-access")
        #expect(await fixture.store.stored?.revealed == "dev-refresh")
    }

    @Test func aLargerIntervalInAnAnswerIsHonoured() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/device/code", .answer(status: 200, body: Self.started))
        await fixture.server.script(
            "/v1/device/token", Self.error("slow_down", interval: 12),
            Self.error("authorization_pending"), Self.tokens)
        let started = try await fixture.session.deviceFlow.start()
        _ = try await fixture.session.deviceFlow.waitForApproval(started)
        #expect(fixture.clock.sleeps == [5, 12, 12])
    }

    @Test func stopsAtExpiresIn() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/device/code", .answer(status: 200, body: Self.started))
        for _ in 0..<20 {
            await fixture.server.script("/v1/device/token", Self.error("authorization_pending"))
        }
        let started = try await fixture.session.deviceFlow.start()
        await #expect(throws: TokenSwapClientError.deviceAuthorizationExpired) {
            try await fixture.session.signIn(approving: started)
        }
        // Polls at 5, 10, …, 55 s; the next would be at 60 s, when the code is dead.
        #expect(await fixture.server.count("/v1/device/token") == 11)
        #expect(await fixture.session.status() == .signedOut(.neverSignedIn))
    }

    static let stopping: [(FakeTokenSwap.Reply, TokenSwapClientError)] = [
        (error("access_denied"), .accessDenied),
        (error("expired_token"), .deviceAuthorizationExpired),
        (error("invalid_grant"), .rejected(OAuthErrorAnswer(status: 400, error: "invalid_grant"))),
        (
            .answer(status: 502, body: #"{"error":"upstream_error"}"#),
            .rejected(OAuthErrorAnswer(status: 502, error: "upstream_error"))
        ),
        (.noAnswer(.timedOut), .network(code: .timedOut, detail: "URLError -1001")),
    ]

    @Test(arguments: 0..<stopping.count)
    func anyOtherErrorStopsTheFlow(index: Int) async throws {
        let (reply, expected) = Self.stopping[index]
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script("/v1/device/code", .answer(status: 200, body: Self.started))
        await fixture.server.script(
            "/v1/device/token", Self.error("authorization_pending"), reply, Self.tokens)
        let started = try await fixture.session.deviceFlow.start()
        await #expect(throws: expected) { try await fixture.session.signIn(approving: started) }
        #expect(await fixture.server.count("/v1/device/token") == 2)
    }

    @Test func aStartAnswerWithoutAUserCodeIsUnexpected() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        await fixture.server.script(
            "/v1/device/code",
            .answer(
                status: 200,
                body: #"{"device_code":"d","verification_uri":"https://x","expires_in":60}"#))
        await #expect(throws: TokenSwapClientError.unexpectedAnswer(status: 200)) {
            try await fixture.session.deviceFlow.start()
        }
    }
}
