import Foundation
import Testing

@testable import TokenSwapClient

/// `events`: every read is a subscriber of its own that gets every event from then on (a
/// single shared stream let a second `for await` take the first one's events).
@Suite struct TokenSessionEventsTests {
    @Test func twoSubscribersBothReceiveEveryEvent() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let first = fixture.session.events
        let second = fixture.session.events
        _ = try await fixture.signedIn()
        try await fixture.session.signOut(revoking: false)
        let expected: [TokenSessionEvent] = [.signedIn, .signedOut(.userRequested)]
        #expect(await SessionFixture.first(2, of: first) == expected)
        #expect(await SessionFixture.first(2, of: second) == expected)
        #expect(await fixture.events(2) == expected)
    }

    @Test func aSubscriberGetsTheEventsFromItsSubscriptionOn() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        _ = try await fixture.signedIn()
        let late = fixture.session.events
        try await fixture.session.signOut(revoking: false)
        #expect(await SessionFixture.first(1, of: late) == [.signedOut(.userRequested)])
    }

    /// One subscriber leaving its loop, and another whose task is cancelled, neither end
    /// the stream of a third; both are unsubscribed.
    @Test func aSubscriberThatStopsDoesNotStopOthers() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let broadcast = fixture.session.broadcast
        let staying = fixture.session.events
        let leaving = Task { () -> TokenSessionEvent? in
            for await event in fixture.session.events { return event }
            return nil
        }
        let cancelled = Task {
            var seen: [TokenSessionEvent] = []
            for await event in fixture.session.events { seen.append(event) }
            return seen
        }
        // The fixture's own subscription, `staying`, and the two tasks'.
        await waitUntil { broadcast.subscriberCount == 4 }
        _ = try await fixture.signedIn()
        #expect(await leaving.value == TokenSessionEvent.signedIn)
        await waitUntil { broadcast.subscriberCount == 3 }
        cancelled.cancel()
        #expect(await cancelled.value.allSatisfy { $0 == .signedIn })
        await waitUntil { broadcast.subscriberCount == 2 }

        #expect(try await fixture.session.invalidateAccessToken("access-1") == "access-2")
        try await fixture.session.signOut(revoking: false)
        #expect(
            await SessionFixture.first(3, of: staying) == [
                .signedIn, .refreshed(expiresInSeconds: 3600), .signedOut(.userRequested),
            ])
    }

    /// A reader that never reads costs at most the buffer: past it the oldest events
    /// go, and the newest (what a UI shows) stay.
    @Test func aSlowSubscriberLosesTheOldestEventsNotTheNewest() async {
        let broadcast = EventBroadcast<Int>(bufferSize: 4)
        let slow = broadcast.subscribe()
        for event in 1...10 {
            broadcast.yield(event)
        }
        broadcast.finish()
        #expect(broadcast.subscriberCount == 0)
        #expect(await SessionFixture.first(10, of: slow) == [7, 8, 9, 10])
        // After the end a subscriber's stream is over at once.
        #expect(await SessionFixture.first(1, of: broadcast.subscribe()) == [])
    }

    @Test func theStreamsEndWithTheSession() async throws {
        let endpoints = try TokenSwapEndpoints(baseURL: try #require(URL(string: "https://t.test")))
        var session: TokenSession? = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints, transport: FakeTokenSwap()),
            store: MemoryCredentialStore())
        let broadcast = try #require(session?.broadcast)
        let events = try #require(session?.events)
        #expect(broadcast.subscriberCount == 1)
        session = nil
        #expect(broadcast.subscriberCount == 0)
        #expect(await SessionFixture.first(1, of: events) == [])
    }
}
