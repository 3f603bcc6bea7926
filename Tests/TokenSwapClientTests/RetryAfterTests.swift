import Foundation
import Testing

@testable import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Retry-After` (RFC 9110 §10.2.3) as the kit reads it: seconds or a date, clamped to
/// one second at least and an hour at most (CONTRACT §2 clamps a provider's alike).
@Suite struct RetryAfterTests {
    static func seconds(_ headers: [String: String]) throws -> Double? {
        let url = try #require(URL(string: "https://t.test"))
        return HTTPURLResponse(url: url, statusCode: 429, httpVersion: nil, headerFields: headers)
            .flatMap(RetryAfter.seconds(in:))
    }

    @Test func inSecondsOrAsADateAgainstTheAnswersDate() throws {
        #expect(try Self.seconds(["Retry-After": "7"]) == 7)
        #expect(try Self.seconds(["Retry-After": " 7 "]) == 7)
        #expect(try Self.seconds([:]) == nil)
        #expect(try Self.seconds(["Retry-After": "-1"]) == nil)
        #expect(try Self.seconds(["Retry-After": "1.5"]) == nil)
        #expect(try Self.seconds(["Retry-After": "soon"]) == nil)
        #expect(
            try Self.seconds([
                "Date": "Sun, 06 Nov 1994 08:49:37 GMT",
                "Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT",
            ]) == 30)
    }

    @Test(
        arguments: [
            ("3600", 3600), ("3601", 3600), ("99999999999999999999", 3600),
            (String(repeating: "9", count: 400), 3600), ("0", 1), ("00000", 1),
        ] as [(String, Double)])
    func delaySecondsAreClampedToAnHour(value: String, clamped: Double) throws {
        #expect(try Self.seconds(["Retry-After": value]) == clamped)
    }

    @Test func aDateIsClampedAlike() throws {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(
            try Self.seconds(["Date": date, "Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"])
                == 3600)
        #expect(
            try Self.seconds(["Date": date, "Retry-After": "Sun, 06 Nov 1994 08:49:00 GMT"]) == 1)
    }

    /// Issue 18 item 5: a provider's `Retry-After: 99999999999999999999` passed through
    /// used to stop the session refreshing for good, and its error and event trapped when
    /// printed.
    @Test func aHugeRetryAfterHoldsTheSessionForAnHourAtMost() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/refresh",
            .answer(
                status: 429, body: #"{"error":"temporarily_unavailable"}"#,
                headers: ["Retry-After": "99999999999999999999"]))
        do {
            _ = try await fixture.session.accessToken()
            Issue.record("expected a failure")
        } catch {
            #expect(
                error as? TokenSwapClientError == .temporarilyUnavailable(retryAfterSeconds: 3600))
            #expect("\(error)" == "temporarily unavailable, retry after 3600 s")
        }
        let events = await fixture.events(1)
        #expect(
            events == [
                .transientFailure(TransientFailure(kind: .throttled, retryAfterSeconds: 3600))
            ])
        #expect("\(events)".contains("retry after 3600 s"))
        fixture.clock.advance(3599)
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 1)) {
            try await fixture.session.accessToken()
        }
        fixture.clock.advance(1)
        #expect(try await fixture.session.accessToken() == "access-1")
        #expect(await fixture.server.count("/v1/refresh") == 2)
    }

    /// The same for a revocation the provider failed (RFC 7009 §2.2.1).
    @Test func aRevocationsRetryAfterIsClampedToo() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/revoke",
            .answer(
                status: 503, body: #"{"error":"temporarily_unavailable"}"#,
                headers: ["Retry-After": "99999999999999999999"]))
        await #expect(
            throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 3600)
        ) {
            try await fixture.session.signOut()
        }
    }
}
