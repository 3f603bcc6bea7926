import HTTPClient
import HTTPCore
import RESPClient
import Sealing
import Synchronization
import TestSupport
import Testing
import Transport

@testable import TokenSwap
@testable import TokenSwapFixtures

/// Single flight on a shared store (CONTRACT §12): one copy holds at most 256 requests
/// waiting on one token and answers any more `503` with `Retry-After: 1`, and a waiting
/// request costs the store at most 10 commands a second. Through the handlers, against a
/// real `redis-server` of the test's own, with the provider call held in flight until the
/// test releases it.
///
/// Deadlines class: the store's commands are counted over a wall-clock window.
@Suite(.resourceClass(.deadlines)) struct RedisWaitersTests {
    typealias F = GrantEndpointsFixtures

    static let group = EventLoopGroup(loopCount: 2)

    static let tokens =
        #"{"access_token":"access-w","token_type":"Bearer","scope":"s","expires_in":3600,"refresh_token":"raw-w"}"#


    /// The commands the server ran since the last `CONFIG RESETSTAT`, from
    /// `INFO commandstats` (`cmdstat_<name>:calls=N,…`), without the test's own `INFO`
    /// and `CONFIG`.
    static func commandCount(_ client: RESPClient) async throws -> Int {
        guard
            case .bulkString(let bytes?) = try await client.send([
                Array("INFO".utf8), Array("commandstats".utf8),
            ])
        else { throw RESPError.protocolViolation(reason: "INFO answered no text") }
        var total = 0
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard line.hasPrefix("cmdstat_"), !line.hasPrefix("cmdstat_info:"),
                !line.hasPrefix("cmdstat_config"),
                let calls = line.split(separator: ":").last?.split(separator: ",").first,
                calls.hasPrefix("calls="), let count = Int(calls.dropFirst("calls=".count))
            else { continue }
            total += count
        }
        return total
    }

    static func resetCommandCounts(_ client: RESPClient) async throws {
        _ = try await client.send([Array("CONFIG".utf8), Array("RESETSTAT".utf8)])
    }

    /// 300 refreshes of one token while the provider holds the first: one provider call,
    /// 256 waiting, the other 43 answered at once `503` with `Retry-After: 1`; while they
    /// wait the store sees at most 10 commands a second for the one token; once the
    /// provider answers, the claimant and every waiter get its answer.
    @Test func aCopyHolds256WaitersOnOneTokenAndTheirWaitCostsTheStoreAtMost10CommandsASecond()
        async throws
    {
        let redis = try await RedisServer.start()
        let client = try RESPClient(
            endpoint: RESPEndpoint(url: redis.url), loops: Self.group, timeout: .seconds(5))
        let probe = try RESPClient(
            endpoint: RESPEndpoint(url: redis.url), loops: Self.group, timeout: .seconds(5))
        defer { client.shutdown(); probe.shutdown() }
        let upstream = HeldUpstream(json: Self.tokens)
        let provider = try F.provider()
        let service = GrantEndpoints(
            keyRing: try KeyRing(parsing: F.newKey), transport: upstream,
            upstreamTimeoutSeconds: 20, logger: LogCapture().logger,
            state: RedisStateStore(client: client, loops: Self.group))
        let sealed = try F.seal("raw-held", keys: F.newKey, provider: provider)
        let collected = CollectedAnswers()
        let requests = 300
        for _ in 0..<requests {
            service.refresh(
                F.form("refresh_token=\(sealed)", path: "/v1/refresh"), provider: provider,
                completion: collected.record)
        }
        defer { upstream.release() }  // nothing stays held if an expectation throws

        // The claimant calls the provider; of the 299 others, 256 wait and 43 are refused
        // at once.
        let refused = requests - 1 - MemoryStateStore.defaultMaxWaitersPerKey
        try await pollUntil(within: .seconds(20)) {
            upstream.callCount == 1 && collected.count >= refused
        }
        let early = collected.all
        #expect(early.count == refused, "only the requests beyond the cap are answered early")
        for answer in early {
            #expect(answer.status.code == 503)
            #expect(answer.headers["Retry-After"] == "1")
            #expect(try F.body(answer)["error"] == .string("temporarily_unavailable"))
        }

        // The 256 waiters until the store has seen ten of their commands: at most 10
        // commands a second for the token they wait on (and so far fewer per waiting
        // request), plus one for the window's edges. The count and its time are read
        // together, when the tenth command has come (an event, not a length of time).
        try await Self.resetCommandCounts(probe)
        let start = Deadline.now
        var commands = 0
        var elapsed = Duration.zero
        try await pollUntil(every: .milliseconds(20), within: .seconds(20)) {
            commands = try await Self.commandCount(probe)
            elapsed = Deadline.now.duration(since: start)
            return commands >= 10
        }
        let seconds =
            Double(elapsed.components.seconds)
            + Double(elapsed.components.attoseconds) / 1e18
        #expect(
            Double(commands) <= 10 * seconds + 1,
            "\(commands) store commands in \(seconds) s for one waited token")
        #expect(collected.count == refused, "no waiter gave up early")

        upstream.release()
        try await pollUntil(within: .seconds(20)) { collected.count == requests }
        let answers = collected.all
        let served = answers.filter { $0.status.code == 200 }
        #expect(served.count == requests - refused)
        #expect(Set(served.map(\.body)).count == 1, "every waiter got the one answer")
        #expect(answers.filter { $0.status.code == 503 }.count == refused)
        #expect(upstream.callCount == 1)
    }
}
