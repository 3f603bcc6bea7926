import Foundation
import Testing
import TokenSwapClient

/// Freshness is counted on the local monotonic clock from when the answer arrived.
@Suite struct TokenSessionExpiryTests {
    @Test(arguments: ["3600", "\"3600\""])
    func refreshesWithinTheSkewOfExpiry(expiresIn: String) async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil, skewSeconds: 60)
        await fixture.server.setExpiresIn(expiresIn)
        let server = try await fixture.signedIn()
        fixture.clock.advance(3539)
        #expect(try await fixture.session.accessToken() == "access-1")
        fixture.clock.advance(2)
        #expect(try await fixture.session.accessToken() == "access-2")
        #expect(await server.count("/v1/refresh") == 1)
    }

    @Test func theSkewIsConfigurable() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil, skewSeconds: 600)
        _ = try await fixture.signedIn()
        fixture.clock.advance(2999)
        #expect(try await fixture.session.accessToken() == "access-1")
        fixture.clock.advance(2)
        #expect(try await fixture.session.accessToken() == "access-2")
    }

    @Test func aNumericStringExpiresInFromAnSDKsAnswerCounts() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil, skewSeconds: 60)
        let answer = try TokenAnswer(
            json: Data(
                #"{"access_token":"sdk-access","expires_in":"120","refresh_token":"refresh-0"}"#
                    .utf8))
        try await fixture.session.signIn(with: answer)
        fixture.clock.advance(59)
        #expect(try await fixture.session.accessToken() == "sdk-access")
        fixture.clock.advance(2)
        #expect(try await fixture.session.accessToken() == "access-1")
    }

    /// The device's wall clock is ten minutes off the server's (the answers' `Date`):
    /// nothing changes, because nothing reads the wall clock. A `Retry-After` given as a
    /// date is measured against the answer's own `Date`.
    @Test(arguments: [-600.0, 600.0])
    func aDeviceClockTenMinutesOffChangesNothing(offsetSeconds: Double) async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil, skewSeconds: 60)
        await fixture.server.setDateOffset(offsetSeconds)
        let server = try await fixture.signedIn()
        fixture.clock.advance(3539)
        #expect(try await fixture.session.accessToken() == "access-1")
        fixture.clock.advance(61)
        let serverNow = Date(timeIntervalSince1970: ManualClock.wallStart + offsetSeconds)
        await server.script(
            "/v1/refresh",
            .answer(
                status: 429, body: #"{"error":"rate_limited"}"#,
                headers: [
                    "Date": FakeTokenSwap.httpDate(serverNow),
                    "Retry-After": FakeTokenSwap.httpDate(serverNow.addingTimeInterval(30)),
                ]))
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 30)) {
            try await fixture.session.accessToken()
        }
        fixture.clock.advance(30)
        #expect(try await fixture.session.accessToken() == "access-2")
    }

    @Test func withoutExpiresInTheTokenIsUsedUntilA401() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        try await fixture.session.signIn(
            with: TokenAnswer(json: Data(#"{"access_token":"a","refresh_token":"refresh-0"}"#.utf8))
        )
        fixture.clock.advance(100_000)
        #expect(try await fixture.session.accessToken() == "a")
        #expect(await fixture.server.count("/v1/refresh") == 0)
    }

    @Test func withoutARefreshTokenTheSessionEndsAtExpiry() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "old")
        try await fixture.session.signIn(
            with: TokenAnswer(json: Data(#"{"access_token":"a","expires_in":3600}"#.utf8)))
        // A sign-in without a refresh token replaces the previous user's stored one.
        #expect(await fixture.store.stored == nil)
        #expect(try await fixture.session.accessToken() == "a")
        fixture.clock.advance(3600)
        await #expect(throws: TokenSwapClientError.signedOut(.noRefreshToken)) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.server.count("/v1/refresh") == 0)
        #expect(await fixture.events(2) == [.signedIn, .signedOut(.noRefreshToken)])
    }
}
