import Foundation
import Testing
import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session over the fake tokenswap, the recording store and the manual clock. The
/// jitter takes the top of its range, so a backoff is exactly predictable.
struct SessionFixture {
    let server = FakeTokenSwap()
    let store: RecordingStore
    let clock = ManualClock()
    let session: TokenSession
    /// Subscribed before anything happens: a stream has the events from its subscription
    /// on, and `events(_:)` reads them from the session's start.
    let subscription: AsyncStream<TokenSessionEvent>

    /// `dpop`: the session's DPoP; the recording store has no key store of its own, so
    /// `.automatic` is none.
    init(
        storedRefreshToken: String? = "refresh-0", skewSeconds: Double = 60,
        configuration: TokenSessionConfiguration? = nil, dpop: DPoPMode = .automatic
    ) throws {
        store = RecordingStore(storedRefreshToken)
        let endpoints = try TokenSwapEndpoints(
            baseURL: try #require(URL(string: "https://tokenswap.test")))
        session = TokenSession(
            backend: TokenSwapBackend(
                endpoints: endpoints, transport: server, wallClock: { [clock] in clock.wallNow() }),
            store: store,
            configuration: configuration
                ?? TokenSessionConfiguration(refreshSkewSeconds: skewSeconds),
            dpop: dpop, clock: clock, random: { $0.upperBound })
        subscription = session.events
    }

    static let api = URLRequest(url: URL(fileURLWithPath: "/api"))

    /// Signs in as a swap would, with tokens access-1/refresh-1.
    func signedIn() async throws -> FakeTokenSwap {
        try await session.signIn(code: "code")
        return server
    }

    /// The first `count` events (up to 5 s for them to come; fewer fail the comparison).
    func events(_ count: Int) async -> [TokenSessionEvent] {
        await Self.first(count, of: subscription)
    }

    /// The next `count` elements of `stream`, or fewer if they do not come within 5 s
    /// (or the stream ends first).
    static func first<Element: Sendable>(_ count: Int, of stream: AsyncStream<Element>) async
        -> [Element]
    {
        let reader = Task {
            var collected: [Element] = []
            for await event in stream {
                collected.append(event)
                if collected.count == count { break }
            }
            return collected
        }
        // A bound for a failing run, not a wait: the reader ends on the count's last event.
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            reader.cancel()
        }
        let events = await reader.value
        timeout.cancel()
        return events
    }
}
