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

    init(storedRefreshToken: String? = "refresh-0", skewSeconds: Double = 60) throws {
        store = RecordingStore(storedRefreshToken)
        let endpoints = try TokenSwapEndpoints(
            baseURL: try #require(URL(string: "https://tokenswap.test")))
        session = TokenSession(
            service: TokenSwapService(endpoints: endpoints, transport: server), store: store,
            configuration: TokenSessionConfiguration(refreshSkewSeconds: skewSeconds),
            clock: clock, random: { $0.upperBound })
    }

    static let api = URLRequest(url: URL(fileURLWithPath: "/api"))

    /// Signs in as a swap would, with tokens access-1/refresh-1.
    func signedIn() async throws -> FakeTokenSwap {
        try await session.signIn(code: "code")
        return server
    }

    /// The first `count` events (up to 5 s for them to come; fewer fail the comparison).
    func events(_ count: Int) async -> [TokenSessionEvent] {
        let stream = session.events
        let reader = Task {
            var collected: [TokenSessionEvent] = []
            for await event in stream {
                collected.append(event)
                if collected.count == count { break }
            }
            return collected
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(5))
            reader.cancel()
        }
        let events = await reader.value
        timeout.cancel()
        return events
    }
}
