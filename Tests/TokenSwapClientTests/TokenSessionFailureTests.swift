import Foundation
import Synchronization
import Testing
import TokenSwapClient

/// Only `invalid_grant` signs the user out; every transient failure keeps the tokens and
/// backs off (Retry-After for 429, doubling with jitter otherwise).
@Suite struct TokenSessionFailureTests {
    @Test func invalidGrantSignsOutAndWipesTheStore() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "dead")
        await #expect(throws: TokenSwapClientError.signedOut(.invalidGrant)) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.store.stored == nil)
        #expect(await fixture.session.status() == .signedOut(.invalidGrant))
        #expect(await fixture.events(1) == [.signedOut(.invalidGrant)])
        // And it stays signed out without asking again.
        await #expect(throws: TokenSwapClientError.signedOut(.invalidGrant)) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.server.count("/v1/refresh") == 1)
    }

    static let transient: [(FakeTokenSwap.Reply, TransientFailure.Kind)] = [
        (.answer(status: 500, body: ""), .serverError(status: 500)),
        (.answer(status: 502, body: #"{"error":"upstream_error"}"#), .serverError(status: 502)),
        (.answer(status: 504, body: #"{"error":"upstream_timeout"}"#), .serverError(status: 504)),
        (.noAnswer(.timedOut), .network),
        (.noAnswer(.cannotConnectToHost), .network),
        (.answer(status: 200, body: "<html>"), .serverError(status: 200)),
        (
            .answer(status: 400, body: #"{"error":"invalid_request"}"#),
            .rejected(status: 400, error: "invalid_request")
        ),
        (.answer(status: 429, body: #"{"error":"rate_limited"}"#), .throttled),
    ]

    @Test(arguments: 0..<transient.count)
    func aTransientFailureKeepsTheTokensAndBacksOff(index: Int) async throws {
        let (reply, kind) = Self.transient[index]
        let fixture = try SessionFixture()
        await fixture.server.script("/v1/refresh", reply)
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 1)) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.store.stored?.revealed == "refresh-0")
        #expect(await fixture.session.status() == .signedIn)
        #expect(
            await fixture.events(1) == [
                .transientFailure(TransientFailure(kind: kind, retryAfterSeconds: 1))
            ])
        // Within the backoff nothing goes out; after it, the kept token refreshes.
        fixture.clock.advance(0.5)
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 0.5)) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.server.count("/v1/refresh") == 1)
        fixture.clock.advance(0.5)
        #expect(try await fixture.session.accessToken() == "access-1")
    }

    @Test func a429WaitsItsRetryAfter() async throws {
        let fixture = try SessionFixture()
        await fixture.server.script(
            "/v1/refresh",
            .answer(
                status: 429, body: #"{"error":"temporarily_unavailable"}"#,
                headers: ["Retry-After": "7"]))
        await #expect(throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: 7)) {
            try await fixture.session.accessToken()
        }
        fixture.clock.advance(6.9)
        await #expect(throws: TokenSwapClientError.self) { try await fixture.session.accessToken() }
        #expect(await fixture.server.count("/v1/refresh") == 1)
        fixture.clock.advance(0.1)
        #expect(try await fixture.session.accessToken() == "access-1")
        #expect(
            await fixture.events(2) == [
                .transientFailure(TransientFailure(kind: .throttled, retryAfterSeconds: 7)),
                .refreshed(expiresInSeconds: 3600),
            ])
    }

    @Test func theBackoffDoublesUpToItsMaximumAndResetsOnSuccess() async throws {
        let fixture = try SessionFixture()
        for _ in 0..<10 {
            await fixture.server.script("/v1/refresh", .answer(status: 503, body: ""))
        }
        var waits: [Double] = []
        for _ in 0..<10 {
            do {
                _ = try await fixture.session.accessToken()
            } catch TokenSwapClientError.temporarilyUnavailable(let seconds) {
                waits.append(seconds)
                fixture.clock.advance(seconds)
            }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300])
        #expect(try await fixture.session.accessToken() == "access-1")
    }

    @Test func theJitterDrawsFromTheUpperHalfOfTheWait() async throws {
        let ranges = RangeLog()
        let fixture = try SessionFixture()
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        let session = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints, transport: fixture.server),
            store: fixture.store, clock: fixture.clock,
            random: { range in
                ranges.append(range)
                return range.lowerBound
            })
        for _ in 0..<3 {
            await fixture.server.script("/v1/refresh", .noAnswer(.networkConnectionLost))
        }
        for expected in [0.5, 1, 2] {
            await #expect(
                throws: TokenSwapClientError.temporarilyUnavailable(retryAfterSeconds: expected)
            ) {
                try await session.accessToken()
            }
            fixture.clock.advance(expected)
        }
        #expect(ranges.all == [0.5...1, 1...2, 2...4])
    }

    /// A backoff the configuration makes NaN or infinite hands the jitter a finite range:
    /// `Double.random(in:)` traps on an infinite one, `ClosedRange` on NaN bounds.
    @Test(arguments: [Double.nan, .infinity, -.infinity, -5])
    func aBackoffConfiguredOutOfRangeDoesNotTrap(seconds: Double) async throws {
        let fixture = try SessionFixture()
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        let session = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints, transport: fixture.server),
            store: fixture.store,
            configuration: TokenSessionConfiguration(
                backoffInitialSeconds: seconds, backoffMaximumSeconds: seconds),
            clock: fixture.clock)
        await fixture.server.script("/v1/refresh", .answer(status: 503, body: ""))
        do {
            _ = try await session.accessToken()
            Issue.record("expected a failure")
        } catch TokenSwapClientError.temporarilyUnavailable(let wait) {
            #expect((0...86_400).contains(wait))
            fixture.clock.advance(wait)
        }
        #expect(try await session.accessToken() == "access-1")
    }

    @Test func aRefreshAheadOfExpiryThatFailsKeepsUsingTheValidToken() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil, skewSeconds: 60)
        let server = try await fixture.signedIn()
        fixture.clock.advance(3550)
        await server.script(
            "/v1/refresh", .answer(status: 502, body: #"{"error":"upstream_error"}"#))
        #expect(try await fixture.session.accessToken() == "access-1")
        // During the backoff too, until the token really expires.
        #expect(try await fixture.session.accessToken() == "access-1")
        fixture.clock.advance(1)
        #expect(try await fixture.session.accessToken() == "access-2")
    }

    @Test func storageUnavailableAtLaunchIsNotSignedOut() async throws {
        let fixture = try SessionFixture(storedRefreshToken: "refresh-0")
        await fixture.store.setLoadFails(true)
        await #expect(throws: TokenSwapClientError.storageUnavailable) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.session.status() == .storageUnavailable)
        #expect(await fixture.store.stored?.revealed == "refresh-0")
        #expect(await fixture.server.requests.isEmpty)
        #expect(
            await fixture.events(1) == [
                .transientFailure(
                    TransientFailure(kind: .storageUnavailable, retryAfterSeconds: nil))
            ])
        // The keychain unlocks: the stored token works.
        await fixture.store.setLoadFails(false)
        #expect(try await fixture.session.accessToken() == "access-1")
        #expect(await fixture.store.stored?.revealed == "refresh-1")
    }

    @Test func anEmptyStoreIsNeverSignedIn() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        #expect(await fixture.session.status() == .signedOut(.neverSignedIn))
        await #expect(throws: TokenSwapClientError.signedOut(.neverSignedIn)) {
            try await fixture.session.accessToken()
        }
    }
}

/// The ranges a jitter function was asked for.
final class RangeLog: Sendable {
    private let ranges = Mutex<[ClosedRange<Double>]>([])
    func append(_ range: ClosedRange<Double>) { ranges.withLock { $0.append(range) } }
    var all: [ClosedRange<Double>] { ranges.withLock { $0 } }
}
