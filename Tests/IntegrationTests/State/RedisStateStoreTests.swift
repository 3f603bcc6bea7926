import RESPClient
import Synchronization
import TestSupport
import Testing
import Transport

@testable import TokenSwap

#if canImport(Glibc)
    import Glibc
#endif

/// `RedisStateStore` against a real `redis-server` of the test's own (CONTRACT §12): two
/// store instances on one server stand for two copies of the service, each with its own
/// client and connections.
/// Deadlines class: several checks are windows of a few hundred milliseconds on the wall
/// clock (expiry, refill), which a loaded machine must not stretch.
@Suite(.resourceClass(.deadlines)) struct RedisStateStoreTests {
    static let group = EventLoopGroup(loopCount: 2)

    /// A store (one copy's view) of `redis`.
    static func store(
        _ redis: RedisServer, password: String? = nil, timeout: Duration = .seconds(30)
    )
        throws -> (RedisStateStore, RESPClient)
    {
        let client = try RESPClient(
            endpoint: RESPEndpoint(url: redis.url, password: password),
            loops: group, timeout: timeout)
        return (RedisStateStore(client: client, loops: group), client)
    }

    static func key(_ namespace: StateNamespace, _ value: String = #function) -> StateKey {
        StateKey(namespace, value: value)!
    }

    /// Calls of `command` (lower case) the server has counted since its stats were reset,
    /// from clients and from scripts alike (`INFO commandstats`).
    static func calls(of command: String, _ client: RESPClient) async throws -> Int {
        guard
            case .bulkString(let bytes?) = try await client.send([
                Array("INFO".utf8), Array("commandstats".utf8),
            ])
        else { throw RESPError.protocolViolation(reason: "INFO answered no text") }
        let prefix = "cmdstat_\(command):calls="
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
        where line.hasPrefix(prefix) {
            return Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) ?? 0
        }
        return 0
    }

    /// Starts `b`'s wait for `key` and returns once it has looked at the store (its first
    /// `HGET`), so what follows happens while it waits.
    static func waiting(
        _ b: RedisStateStore, _ key: StateKey, probe: RESPClient
    ) async throws -> Task<RefreshClaim, any Error> {
        _ = try await probe.send([Array("CONFIG".utf8), Array("RESETSTAT".utf8)])
        let waiter = Task { try await b.awaitAnswer(key, until: .after(seconds: 30)) }
        try await pollUntil(every: .milliseconds(5)) { try await calls(of: "hget", probe) >= 1 }
        return waiter
    }

    @Test func onlyOneOfManyConcurrentClaimsOverTwoCopiesWins() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.refresh)
        let claims = try await withThrowingTaskGroup(of: RefreshClaim.self) { group in
            for index in 0..<40 {
                group.addTask { try await (index % 2 == 0 ? a : b).claim(key) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(claims.filter { $0 == .claimed }.count == 1)
        #expect(claims.filter { $0 == .inFlight }.count == 39)
    }

    @Test func aSettledAnswerIsKeptWithItsAgeAndAWaiterOnTheOtherCopyGetsIt() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.refresh)
        #expect(try await a.claim(key) == .claimed)
        let sealed: [UInt8] = [0, 13, 10, 255] + Array("sealed answer".utf8)
        let waiter = try await Self.waiting(b, key, probe: clientA)
        try await a.settle(key, answer: sealed)
        guard case .kept(let answer, let age) = try await waiter.value else {
            Issue.record("the waiter did not get the kept answer")
            return
        }
        #expect(answer == sealed)
        #expect(age < .seconds(30))
        // A repeat within the window, on either copy, gets it without a claim.
        guard case .kept(let again, _) = try await b.claim(key) else {
            Issue.record("a repeat did not get the kept answer")
            return
        }
        #expect(again == sealed)
    }

    @Test func aFreedClaimGoesToTheWaiterAndAnAnswerExpiresAfterItsWindow() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.refresh)
        #expect(try await a.claim(key) == .claimed)
        let waiter = try await Self.waiting(b, key, probe: clientA)
        try await a.settle(key, answer: nil)  // a 5xx: nothing kept
        #expect(try await waiter.value == .claimed)  // b holds the claim now
        #expect(try await a.claim(key) == .inFlight)
        try await b.settle(key, answer: [1], keepFor: .milliseconds(100))
        // Kept for 100 ms of the server's clock, then a new claim wins.
        try await pollUntil(every: .milliseconds(20)) { try await a.claim(key) == .claimed }
    }

    /// An answer settled without a window (a 429, a 504) goes to the requests waiting
    /// for it, on either copy, but a request that arrives after it claims the key.
    @Test func anAnswerWithoutAWindowGoesToTheWaitersOnly() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.refresh)
        #expect(try await a.claim(key) == .claimed)
        let waiter = try await Self.waiting(b, key, probe: clientA)
        try await a.settle(key, answer: [4, 2, 9], keepFor: .zero)
        guard case .kept(let answer, _) = try await waiter.value else {
            Issue.record("the waiter did not get the answer handed over")
            return
        }
        #expect(answer == [4, 2, 9])
        #expect(try await b.claim(key) == .claimed)
    }

    @Test func aWaiterWhoseDeadlinePassesGetsInFlight() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = Self.key(.refresh)
        #expect(try await a.claim(key) == .claimed)
        let start = Deadline.now
        #expect(try await a.awaitAnswer(key, until: .after(seconds: 0.2)) == .inFlight)
        #expect(Deadline.now.duration(since: start) >= .milliseconds(190))
    }

    @Test func aClaimantThatDiesFreesTheKeyAfterItsInFlightTime() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = Self.key(.refresh)
        #expect(try await a.claim(key, inFlightFor: .milliseconds(100)) == .claimed)
        // Held for 100 ms of the server's clock, then free.
        try await pollUntil(every: .milliseconds(20)) { try await a.claim(key) == .claimed }
    }

    @Test func aBucketCountsAcrossTwoCopies() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.rateLimit)
        let limit = BucketLimit(ratePerSecond: 1.0 / 60, burst: 5)
        var allowed = 0
        var retryAfter: [Int] = []
        for index in 0..<10 {
            switch try await (index % 2 == 0 ? a : b).take(key, limit) {
            case .allowed: allowed += 1
            case .limited(let seconds): retryAfter.append(seconds)
            }
        }
        #expect(allowed == 5)
        #expect(retryAfter.allSatisfy { (1...60).contains($0) })
        // A token given back on one copy is taken on the other.
        try await a.giveBack(key, limit)
        #expect(try await b.take(key, limit) == .allowed)
        #expect(try await b.take(key, limit) != .allowed)
        // Another key is another bucket.
        #expect(try await a.take(Self.key(.rateLimit, "other"), limit) == .allowed)
    }

    @Test func aBucketRefillsAtItsRateAndNeverAboveItsBurst() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = Self.key(.rateLimit)
        let limit = BucketLimit(ratePerSecond: 20, burst: 2)
        try await a.giveBack(key, limit)  // no bucket yet: nothing above the burst
        #expect(try await a.take(key, limit) == .allowed)
        #expect(try await a.take(key, limit) == .allowed)
        #expect(try await a.take(key, limit) == .limited(retryAfterSeconds: 1))
        // Time itself is what is tested: the script refills by the server's clock, and
        // 300 ms are 6 tokens' worth, of which the burst keeps 2. (The arithmetic is
        // TokenBucketTests' with an injected clock; this is the script's.) Then take until
        // refused: the burst, plus what the server refilled while the takes ran.
        try await Task.sleep(for: .milliseconds(300))
        let taking = Deadline.now
        var taken = 0
        while try await a.take(key, limit) == .allowed { taken += 1 }
        let refilledMeanwhile = Int(
            (Deadline.now.duration(since: taking) / .milliseconds(50)).rounded(.up))
        #expect(taken >= 2)
        #expect(taken <= 2 + refilledMeanwhile)
    }

    @Test func aSlowDownOnOneCopyHoldsOnTheOther() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.devicePoll)
        #expect(try await a.poll(key, initialInterval: 5) == .poll(interval: 5))
        #expect(try await b.poll(key, initialInterval: 5) == .slowDown(interval: 10))
        #expect(try await a.poll(key, initialInterval: 5) == .slowDown(interval: 15))
        #expect(try await b.providerAskedToSlowDown(key) == 20)
        try await a.finishPolling(key)
        #expect(try await b.providerAskedToSlowDown(key) == nil)
        #expect(try await b.poll(key, initialInterval: 7) == .poll(interval: 7))
    }

    @Test func aPollIntervalSaturatesAtAnHour() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = Self.key(.devicePoll)
        // Out-of-range intervals are clamped as DevicePollSchedule clamps them.
        #expect(try await a.poll(key, initialInterval: Int.max) == .poll(interval: 3600))
        #expect(try await a.poll(key, initialInterval: 5) == .slowDown(interval: 3600))
        #expect(try await a.providerAskedToSlowDown(key) == 3600)
        let other = Self.key(.devicePoll, "other")
        #expect(try await a.poll(other, initialInterval: Int.min) == .poll(interval: 1))
    }

    @Test func aPollEntryLivesAsLongAsItsCode() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = Self.key(.devicePoll)
        #expect(
            try await a.poll(key, initialInterval: 5, lifetime: .milliseconds(100))
                == .poll(interval: 5))
        // Within its 100 ms a second poll is too soon; after them the entry is gone and a
        // poll is a first poll again.
        try await pollUntil(every: .milliseconds(20)) {
            try await a.poll(key, initialInterval: 5, lifetime: .milliseconds(100))
                == .poll(interval: 5)
        }
    }

    @Test func anIdIsSeenOnceAcrossCopiesUntilItExpires() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.proofID)
        #expect(try await b.contains(key) == false)
        #expect(try await a.insertIfAbsent(key, keepFor: .milliseconds(200)) == true)
        #expect(try await b.insertIfAbsent(key, keepFor: .milliseconds(200)) == false)
        #expect(try await b.contains(key) == true)
        // Kept for 200 ms of the server's clock, then gone.
        try await pollUntil(every: .milliseconds(20)) { try await a.contains(key) == false }
        #expect(try await b.insertIfAbsent(key, keepFor: .zero) == true)  // at least 1 ms
    }

    @Test func aGenerationOnlyRisesAndHoldsTheWholeUInt64Range() async throws {
        let redis = try await RedisServer.start()
        let (a, clientA) = try Self.store(redis)
        let (b, clientB) = try Self.store(redis)
        defer { clientA.shutdown(); clientB.shutdown() }
        let key = Self.key(.familyGeneration)
        #expect(try await a.raiseGeneration(key, to: 5) == 0)
        #expect(try await b.raiseGeneration(key, to: 3) == 5)
        #expect(try await b.raiseGeneration(key, to: UInt64.max - 1) == 5)
        #expect(try await a.raiseGeneration(key, to: UInt64.max) == UInt64.max - 1)
        #expect(try await a.raiseGeneration(key, to: 9) == UInt64.max)
    }

    @Test func scriptsRunAgainAfterTheServerForgotThem() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let limit = BucketLimit(ratePerSecond: 1, burst: 3)
        let key = Self.key(.rateLimit)
        #expect(try await a.take(key, limit) == .allowed)
        try await pollUntil { a.knowsDigest(of: .bucket) }  // the SCRIPT LOAD has answered
        #expect(try await a.take(key, limit) == .allowed)  // by digest
        _ = try await client.send([Array("SCRIPT".utf8), Array("FLUSH".utf8)])
        #expect(try await a.take(key, limit) == .allowed)  // NOSCRIPT, then by text
        #expect(try await a.take(key, limit) == .limited(retryAfterSeconds: 1))
    }

    @Test func withAPasswordTheStoreWorksAndWithTheWrongOneEveryCallFailsClearly() async throws {
        let redis = try await RedisServer.start(["--requirepass", "s3cret-pass"])
        let (good, goodClient) = try Self.store(redis, password: "s3cret-pass")
        let (bad, badClient) = try Self.store(redis, password: "wrong-pass")
        defer { goodClient.shutdown(); badClient.shutdown() }
        let key = Self.key(.proofID)
        #expect(try await good.insertIfAbsent(key, keepFor: .seconds(5)) == true)
        do {
            _ = try await bad.contains(key)
            Issue.record("a wrong password answered")
        } catch {
            #expect(error.operation == "contains")
            #expect(!error.description.contains("wrong-pass"))
            #expect(!error.description.contains("s3cret"))
        }
    }

    @Test func keysAreDigestsAndKeptAnswersAreStoredAsGiven() async throws {
        let redis = try await RedisServer.start()
        let (a, client) = try Self.store(redis)
        defer { client.shutdown() }
        let key = StateKey(.refresh, scope: "spotify", value: "raw-refresh-token-value")!
        #expect(try await a.claim(key) == .claimed)
        let keys = try await client.send([Array("KEYS".utf8), Array("*".utf8)])
        guard case .array(let names?) = keys, names.count == 1,
            case .bulkString(let name?) = names[0]
        else {
            Issue.record("unexpected KEYS reply")
            return
        }
        let text = String(decoding: name, as: UTF8.self)
        #expect(text == key.description)
        #expect(text.hasPrefix("ts:r:") && text.count == "ts:r:".count + 64)
        #expect(!text.contains("raw-refresh"))
    }
}

/// The store against a peer that accepts and never answers, and a port that refuses:
/// each call fails with a `StateStoreError` within `TOKENSWAP_STATE_TIMEOUT_MS`.
@Suite(.resourceClass(.deadlines)) struct RedisStateStoreFaultTests {
    static let group = EventLoopGroup(loopCount: 1)

    @Test func aSilentStoreFailsEveryCallWithinTheTimeout() async throws {
        let (fd, port) = try Loopback.bind(listenBacklog: 8)
        defer { close(fd) }
        let client = try RESPClient(
            endpoint: RESPEndpoint(url: "redis://127.0.0.1:\(port)"), loops: Self.group,
            timeout: .milliseconds(100))
        defer { client.shutdown() }
        let store = RedisStateStore(client: client, loops: Self.group)
        let key = StateKey(.refresh, value: "silent")!
        let start = Deadline.now
        // Timed where the store answers (on its loop), not after the await: a task resumes
        // only when the test pool has a free thread, which the CPU-heavy unit suites that
        // run beside this one may hold for seconds.
        let (result, took) = await withCheckedContinuation { continuation in
            store.claim(key, inFlightFor: .seconds(5)) { result in
                continuation.resume(returning: (result, Deadline.now.duration(since: start)))
            }
        }
        switch result {
        case .success: Issue.record("a silent store answered")
        case .failure(let error): #expect(error.operation == "claim")
        }
        #expect(took >= .milliseconds(90))
        await #expect(throws: StateStoreError.self) {
            _ = try await store.take(key, BucketLimit(ratePerSecond: 1, burst: 1))
        }
    }

    @Test func aRefusedConnectionIsAStateStoreError() async throws {
        let (fd, port) = try Loopback.bind()
        close(fd)  // nothing listens there now
        let client = try RESPClient(
            endpoint: RESPEndpoint(url: "redis://127.0.0.1:\(port)"), loops: Self.group,
            timeout: .milliseconds(100))
        defer { client.shutdown() }
        let store = RedisStateStore(client: client, loops: Self.group)
        let key = StateKey(.proofID, value: "refused")!
        await #expect(throws: StateStoreError.self) {
            _ = try await store.insertIfAbsent(key, keepFor: .seconds(1))
        }
        await #expect(throws: StateStoreError.self) {
            try await awaited { store.ping(completion: $0) }
        }
    }
}
