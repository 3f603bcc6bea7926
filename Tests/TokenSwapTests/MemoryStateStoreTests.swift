import Synchronization
import Testing
import Transport

@testable import TokenSwap

/// The memory state store (CONTRACT §12) on an injected clock and timers: single flight,
/// kept answers and their window, waiters answered by settle, by a freed key, by a lapsed
/// claim or by their deadline, the bound with the oldest evicted first, and the seen-once,
/// generation, rate-limit and device-poll tables.
@Suite struct MemoryStateStoreTests {
    /// Now on a clock the test moves.
    final class ManualClock: Sendable {
        private let nanoseconds = Mutex<UInt64>(1_000_000_000)
        var now: Deadline { Deadline(uptimeNanoseconds: nanoseconds.withLock { $0 }) }
        func advance(seconds: Double) {
            nanoseconds.withLock { $0 += UInt64(seconds * 1e9) }
        }
    }

    /// Timers the test fires by hand, with the deadlines they were set for.
    final class ManualTimers: Sendable {
        private let pending = Mutex<[(deadline: Deadline, fire: @Sendable () -> Void)]>([])
        var timers: StateTimers {
            StateTimers { deadline, fire in
                self.pending.withLock { $0.append((deadline, fire)) }
                return nil
            }
        }
        var count: Int { pending.withLock { $0.count } }
        var deadlines: [Deadline] { pending.withLock { $0.map(\.deadline) } }
        /// Fires every timer due at `now`, as a loop would.
        func fireDue(at now: Deadline) {
            let due = pending.withLock { pending in
                let due = pending.filter { $0.deadline <= now }
                pending.removeAll { $0.deadline <= now }
                return due
            }
            for timer in due { timer.fire() }
        }
    }

    /// What a callback answered (the memory store answers before returning, or later).
    final class Answers<Value: Sendable>: Sendable {
        private let values = Mutex<[Value]>([])
        var all: [Value] { values.withLock { $0 } }
        var last: Value? { all.last }
        func record(_ result: Result<Value, StateStoreError>) {
            if case .success(let value) = result { values.withLock { $0.append(value) } }
        }
    }

    static func key(_ value: String, _ namespace: StateNamespace = .refresh) throws -> StateKey {
        try #require(StateKey(namespace, scope: "spotify", value: value))
    }

    static func store(
        _ clock: ManualClock, _ timers: ManualTimers = ManualTimers(), capacity: Int = 100,
        evictions: Answers<Int>? = nil
    ) -> MemoryStateStore {
        MemoryStateStore(
            replayCapacity: capacity, revocationCapacity: capacity, generationCapacity: capacity,
            shardCount: 1, clock: { clock.now }, timers: timers.timers,
            onEviction: { evictions?.record(.success(1)) })
    }

    func claim(_ store: MemoryStateStore, _ key: StateKey, seconds: Int64 = 10) -> RefreshClaim? {
        let answers = Answers<RefreshClaim>()
        store.claim(key, inFlightFor: .seconds(seconds), completion: answers.record)
        return answers.last
    }

    func settle(_ store: MemoryStateStore, _ key: StateKey, _ answer: [UInt8]?, keep: Int64 = 60) {
        store.settle(key, answer: answer, keepFor: .seconds(keep)) { _ in }
    }

    @Test func theFirstClaimHoldsTheKeyAndTheNextIsInFlight() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        #expect(claim(store, key) == .inFlight)
        #expect(claim(store, try Self.key("U")) == .claimed)
        // Another scope or namespace is another key.
        #expect(
            claim(store, try #require(StateKey(.refresh, scope: "acme", value: "T"))) == .claimed)
    }

    @Test func aSettledAnswerIsKeptForItsWindowWithItsAge() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        settle(store, key, [1, 2, 3], keep: 60)
        clock.advance(seconds: 12.5)
        #expect(claim(store, key) == .kept(answer: [1, 2, 3], age: .milliseconds(12_500)))
        clock.advance(seconds: 47.4)
        #expect(claim(store, key) == .kept(answer: [1, 2, 3], age: .milliseconds(59_900)))
        clock.advance(seconds: 0.1)
        // The window has passed: the key is free again.
        #expect(claim(store, key) == .claimed)
    }

    @Test func settlingWithNothingFreesTheKey() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        settle(store, key, nil)
        #expect(claim(store, key) == .claimed)
        // A window of zero keeps nothing either.
        settle(store, key, [9], keep: 0)
        #expect(claim(store, key) == .claimed)
    }

    @Test func aClaimNeverSettledFreesItselfAfterItsTime() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key, seconds: 5) == .claimed)
        clock.advance(seconds: 4.9)
        #expect(claim(store, key) == .inFlight)
        clock.advance(seconds: 0.1)
        #expect(claim(store, key) == .claimed)
    }

    @Test func waitersGetTheSettledAnswer() throws {
        let clock = ManualClock()
        let timers = ManualTimers()
        let store = Self.store(clock, timers)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        let waiters = (0..<3).map { _ in Answers<RefreshClaim>() }
        for waiter in waiters {
            store.awaitAnswer(
                key, inFlightFor: .seconds(10), until: .after(seconds: 10, from: clock.now),
                completion: waiter.record)
        }
        #expect(waiters.allSatisfy { $0.all.isEmpty })
        #expect(timers.count == 3)
        clock.advance(seconds: 1)
        settle(store, key, [7])
        for waiter in waiters { #expect(waiter.all == [.kept(answer: [7], age: .zero)]) }
        // Their timers fire later and change nothing: each was answered once.
        clock.advance(seconds: 20)
        timers.fireDue(at: clock.now)
        for waiter in waiters { #expect(waiter.all.count == 1) }
    }

    @Test func aFreedKeyGoesToTheFirstWaiterAndTheOthersWaitForIt() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        let first = Answers<RefreshClaim>()
        let second = Answers<RefreshClaim>()
        for waiter in [first, second] {
            store.awaitAnswer(
                key, inFlightFor: .seconds(10), until: .after(seconds: 10, from: clock.now),
                completion: waiter.record)
        }
        settle(store, key, nil)  // a 429: nothing kept
        #expect(first.all == [.claimed])
        #expect(second.all.isEmpty)
        #expect(claim(store, key) == .inFlight)
        settle(store, key, [4])
        #expect(second.all == [.kept(answer: [4], age: .zero)])
    }

    /// `settle(sealing:)`: the answer sealed where the store keeps it is what the next
    /// claim and the waiters get; a seal that fails frees the key for the first waiter; an
    /// answer not kept reaches this call's waiters only.
    @Test func anAnswerSealedInPlaceIsKeptSharedOrFreesTheKey() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        func sealing(_ key: StateKey, _ bytes: [UInt8]?, keep: Int64 = 60) {
            store.settle(key, sealing: bytes?.count ?? 5, keepFor: .seconds(keep)) { target in
                guard let bytes else { return false }
                #expect(target.count == bytes.count)
                target.copyBytes(from: bytes)
                return true
            } completion: { _ in
            }
        }
        func waiter(_ key: StateKey) -> Answers<RefreshClaim> {
            let answers = Answers<RefreshClaim>()
            store.awaitAnswer(
                key, inFlightFor: .seconds(10), until: .after(seconds: 10, from: clock.now),
                completion: answers.record)
            return answers
        }

        let kept = try Self.key("kept")
        #expect(claim(store, kept) == .claimed)
        let waiting = waiter(kept)
        sealing(kept, [1, 2, 3, 4])
        #expect(waiting.all == [.kept(answer: [1, 2, 3, 4], age: .zero)])
        clock.advance(seconds: 2)
        #expect(claim(store, kept) == .kept(answer: [1, 2, 3, 4], age: .seconds(2)))

        let failing = try Self.key("failing")
        #expect(claim(store, failing) == .claimed)
        let first = waiter(failing)
        let second = waiter(failing)
        sealing(failing, nil)
        #expect(first.all == [.claimed])
        #expect(second.all.isEmpty)
        #expect(claim(store, failing) == .inFlight)

        let shared = try Self.key("shared")
        #expect(claim(store, shared) == .claimed)
        let sharing = waiter(shared)
        sealing(shared, [9, 9], keep: 0)
        #expect(sharing.all == [.kept(answer: [9, 9], age: .zero)])
        #expect(claim(store, shared) == .claimed)
    }

    @Test func anAnswerSharedButNotKeptReachesTheWaitersOnly() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        let waiter = Answers<RefreshClaim>()
        store.awaitAnswer(
            key, inFlightFor: .seconds(10), until: .after(seconds: 10, from: clock.now),
            completion: waiter.record)
        settle(store, key, [5, 0, 4], keep: 0)  // a 504: shared, not kept
        #expect(waiter.all == [.kept(answer: [5, 0, 4], age: .zero)])
        #expect(store.replayCount == 0)
        #expect(claim(store, key) == .claimed)
    }

    @Test func aWaiterIsAnsweredInFlightWhenItsDeadlinePasses() throws {
        let clock = ManualClock()
        let timers = ManualTimers()
        let store = Self.store(clock, timers)
        let key = try Self.key("T")
        #expect(claim(store, key, seconds: 30) == .claimed)
        let waiter = Answers<RefreshClaim>()
        let deadline = Deadline.after(seconds: 3, from: clock.now)
        store.awaitAnswer(
            key, inFlightFor: .seconds(30), until: deadline, completion: waiter.record)
        // The timer is set for the earlier of its deadline and the claim's lapse.
        #expect(timers.deadlines == [deadline])
        clock.advance(seconds: 3)
        timers.fireDue(at: clock.now)
        #expect(waiter.all == [.inFlight])
        // A deadline already passed is answered at once, with no timer.
        let late = Answers<RefreshClaim>()
        store.awaitAnswer(key, inFlightFor: .seconds(30), until: clock.now, completion: late.record)
        #expect(late.all == [.inFlight])
    }

    @Test func aWaiterTakesOverAClaimThatLapsed() throws {
        let clock = ManualClock()
        let timers = ManualTimers()
        let store = Self.store(clock, timers)
        let key = try Self.key("T")
        #expect(claim(store, key, seconds: 2) == .claimed)
        let waiter = Answers<RefreshClaim>()
        store.awaitAnswer(
            key, inFlightFor: .seconds(10), until: .after(seconds: 10, from: clock.now),
            completion: waiter.record)
        clock.advance(seconds: 2)
        timers.fireDue(at: clock.now)
        #expect(waiter.all == [.claimed])
        // It holds the key now, for its own time.
        #expect(claim(store, key) == .inFlight)
    }

    @Test func awaitingAFreeOrKeptKeyAnswersAtOnce() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let free = Answers<RefreshClaim>()
        store.awaitAnswer(
            try Self.key("F"), inFlightFor: .seconds(5), until: .after(seconds: 5, from: clock.now),
            completion: free.record)
        #expect(free.all == [.claimed])
        let key = try Self.key("K")
        #expect(claim(store, key) == .claimed)
        settle(store, key, [5])
        let kept = Answers<RefreshClaim>()
        store.awaitAnswer(
            key, inFlightFor: .seconds(5), until: .after(seconds: 5, from: clock.now),
            completion: kept.record)
        #expect(kept.all == [.kept(answer: [5], age: .zero)])
    }

    @Test func waitersPerKeyAreCapped() throws {
        let clock = ManualClock()
        let store = MemoryStateStore(
            shardCount: 1, maxWaitersPerKey: 2, clock: { clock.now }, timers: ManualTimers().timers)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        let waiters = (0..<3).map { _ in Answers<RefreshClaim>() }
        for waiter in waiters {
            store.awaitAnswer(
                key, inFlightFor: .seconds(5), until: .after(seconds: 5, from: clock.now),
                completion: waiter.record)
        }
        #expect(waiters[0].all.isEmpty)
        #expect(waiters[1].all.isEmpty)
        #expect(waiters[2].all == [.waitersFull])
    }

    @Test func theTableIsBoundedAndEvictsTheOldestFirst() throws {
        let clock = ManualClock()
        let evictions = Answers<Int>()
        let store = Self.store(clock, capacity: 3, evictions: evictions)
        let keys = try (0..<5).map { try Self.key("T\($0)") }
        for key in keys.prefix(3) {
            #expect(claim(store, key) == .claimed)
            settle(store, key, [1])
            clock.advance(seconds: 1)
        }
        // Settling moves an entry to the new end: T0 settled again is now the newest.
        settle(store, keys[0], [2])
        #expect(
            store.replay.withShard(of: keys[0]) { $0.keysOldestFirst } == [
                keys[1], keys[2], keys[0],
            ])
        #expect(claim(store, keys[3]) == .claimed)
        #expect(claim(store, keys[4]) == .claimed)
        #expect(store.replayCount == 3)
        #expect(store.evictions == 2)
        #expect(evictions.all.count == 2)
        // The two oldest went; the newest kept answer is still there.
        #expect(claim(store, keys[0]) == .kept(answer: [2], age: .seconds(0)))
        #expect(claim(store, keys[1]) == .claimed)
    }

    /// The kept answers' bytes are bounded too (large JWT answers): past the budget the
    /// oldest go, as at the entry cap; one answer larger than the budget stays alone.
    @Test func keptAnswersAreBoundedInBytesOldestFirst() throws {
        let clock = ManualClock()
        let evictions = Answers<Int>()
        let store = MemoryStateStore(
            replayCapacity: 100, replayByteBudget: 10, shardCount: 1, clock: { clock.now },
            timers: ManualTimers().timers, onEviction: { evictions.record(.success(1)) })
        let keys = try (0..<4).map { try Self.key("B\($0)") }
        for key in keys.prefix(3) {
            _ = claim(store, key)
            settle(store, key, [1, 2, 3, 4])
        }
        #expect(store.replayCount == 2)
        #expect(evictions.all.count == 1)
        #expect(claim(store, keys[2]) == .kept(answer: [1, 2, 3, 4], age: .zero))
        _ = claim(store, keys[3])
        settle(store, keys[3], Array(repeating: 9, count: 40))
        #expect(store.replayCount == 1)
        #expect(claim(store, keys[3]) == .kept(answer: Array(repeating: 9, count: 40), age: .zero))
        #expect(store.evictions == 3)
    }

    @Test func anEvictedClaimsWaitersAreAnsweredInFlight() throws {
        let clock = ManualClock()
        let store = Self.store(clock, capacity: 1)
        let key = try Self.key("T")
        #expect(claim(store, key) == .claimed)
        let waiter = Answers<RefreshClaim>()
        store.awaitAnswer(
            key, inFlightFor: .seconds(5), until: .after(seconds: 5, from: clock.now),
            completion: waiter.record)
        #expect(claim(store, try Self.key("U")) == .claimed)
        #expect(waiter.all == [.inFlight])
        #expect(store.evictions == 1)
    }

    @Test func manyEntriesStayWithinTheBoundAcrossShards() throws {
        let clock = ManualClock()
        let store = MemoryStateStore(
            replayCapacity: 64, shardCount: 4, clock: { clock.now }, timers: ManualTimers().timers)
        for index in 0..<1000 {
            let key = try Self.key("T\(index)")
            _ = claim(store, key)
            settle(store, key, [UInt8(truncatingIfNeeded: index)])
        }
        #expect(store.replayCount <= 64)
        #expect(store.evictions >= 1000 - 64)
    }

    @Test func expiredEntriesAtTheOldEndGoOnInsert() throws {
        let clock = ManualClock()
        let store = Self.store(clock, capacity: 10)
        for index in 0..<4 {
            let key = try Self.key("T\(index)")
            _ = claim(store, key)
            settle(store, key, [1], keep: 1)
        }
        clock.advance(seconds: 2)
        _ = claim(store, try Self.key("U"))
        _ = claim(store, try Self.key("V"))
        // Each insert drops up to two expired entries, and none of that is an eviction.
        #expect(store.replayCount == 2)
        #expect(store.evictions == 0)
    }

    @Test func seenOnceRecordsOnceUntilTheyExpire() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("jti-1", .proofID)
        let answers = Answers<Bool>()
        store.insertIfAbsent(key, keepFor: .seconds(60), completion: answers.record)
        store.insertIfAbsent(key, keepFor: .seconds(60), completion: answers.record)
        store.contains(key, completion: answers.record)
        store.contains(try Self.key("jti-2", .proofID), completion: answers.record)
        clock.advance(seconds: 60)
        store.contains(key, completion: answers.record)
        store.insertIfAbsent(key, keepFor: .seconds(60), completion: answers.record)
        #expect(answers.all == [true, false, true, false, false, true])
    }

    /// Issue 34 item 2 through the store's own calls, on a store of the default size: the
    /// table before the fix kept proof ids in 16 shards of 6,250 picked by the id's plain
    /// digest and evicted a shard's oldest, so 6,400 ids aimed at a captured id's shard
    /// flushed it and its proof could be replayed. A live proof id is never dropped to make
    /// room (CONTRACT §13).
    @Test func proofIDsAimedAtOneShardCannotFlushALiveOne() throws {
        let clock = ManualClock()
        let store = MemoryStateStore(clock: { clock.now })
        let captured = try Self.key("captured-proof-id-0001", .proofID)
        let answers = Answers<Bool>()
        store.insertIfAbsent(captured, keepFor: .seconds(71), completion: answers.record)
        var sent = 0
        var index = 0
        while sent < 6_400 {
            let key = try Self.key("flood-\(index)", .proofID)
            index += 1
            guard key.digestPrefix % 16 == captured.digestPrefix % 16 else { continue }
            store.insertIfAbsent(key, keepFor: .seconds(71)) { _ in }
            sent += 1
        }
        store.insertIfAbsent(captured, keepFor: .seconds(71), completion: answers.record)
        store.contains(captured, completion: answers.record)
        #expect(answers.all == [true, false, true])
    }

    /// Revoked families are bounded (the oldest goes first); proof ids live apart, are
    /// never evicted, and a flood of them cannot evict a revoked family.
    @Test func seenOnceTablesAreBoundedAndProofIDsCannotEvictRevokedFamilies() throws {
        let clock = ManualClock()
        let store = Self.store(clock, capacity: 4)
        let family = try Self.key("family", .revokedFamily)
        let answers = Answers<Bool>()
        store.insertIfAbsent(family, keepFor: .seconds(3600), completion: answers.record)
        for index in 0..<100 {
            store.insertIfAbsent(
                try Self.key("jti-\(index)", .proofID), keepFor: .seconds(60)
            ) { _ in }
        }
        store.contains(family, completion: answers.record)
        store.contains(try Self.key("jti-0", .proofID), completion: answers.record)
        store.contains(try Self.key("jti-99", .proofID), completion: answers.record)
        for index in 0..<4 {
            store.insertIfAbsent(
                try Self.key("family-\(index)", .revokedFamily), keepFor: .seconds(3600)
            ) { _ in }
        }
        store.contains(family, completion: answers.record)
        #expect(answers.all == [true, true, true, true, false])
        #expect(store.proofIDs.withLock { $0.count } == 100)
    }

    /// A proof id recorded with its client: past the client's share (1/16) of the proof
    /// ids there is no room for it, and through `insertIfAbsent` no room is a failure.
    @Test func proofIDsCountAgainstTheirClientsShare() throws {
        let clock = ManualClock()
        let store = MemoryStateStore(proofIDCapacity: 32, clock: { clock.now })
        let client = ClientPrefix(try #require(IPAddress("192.0.2.1")), ipv6PrefixLength: 64)
        let answers = Answers<ProofIDRecording>()
        for index in 0..<3 {
            store.recordProofID(
                try Self.key("jti-\(index)", .proofID), client: client, keepFor: .seconds(71),
                completion: answers.record)
        }
        store.recordProofID(
            try Self.key("jti-0", .proofID), client: .unknown, keepFor: .seconds(71),
            completion: answers.record)
        #expect(answers.all == [.recorded, .recorded, .noRoom(retryAfterSeconds: 71), .seenBefore])
        let failures = Mutex<[StateStoreError]>([])
        for index in 0..<3 {
            store.insertIfAbsent(try Self.key("bare-\(index)", .proofID), keepFor: .seconds(71)) {
                if case .failure(let error) = $0 { failures.withLock { $0.append(error) } }
            }
        }
        #expect(failures.withLock { $0.map(\.reason) } == ["no room for proof ids"])
    }

    @Test func generationsOnlyRiseAndAnswerTheOneBefore() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let key = try Self.key("family", .familyGeneration)
        let answers = Answers<UInt64>()
        for generation: UInt64 in [1, 3, 2, .max, 5] {
            store.raiseGeneration(
                key, to: generation, keepFor: .seconds(60), completion: answers.record)
        }
        clock.advance(seconds: 60)
        store.raiseGeneration(key, to: 1, keepFor: .seconds(60), completion: answers.record)
        #expect(answers.all == [0, 1, 3, 3, .max, 0])
    }

    @Test func rateLimitsKeepTodaysBucketsPerLimit() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let client = try Self.key("192.0.2.1", .rateLimit)
        let limit = BucketLimit(ratePerSecond: 1, burst: 2)
        let answers = Answers<RateDecision>()
        for _ in 0..<3 { store.take(client, limit: limit, completion: answers.record) }
        #expect(answers.all == [.allowed, .allowed, .limited(retryAfterSeconds: 1)])
        // Another limit is another table; a token given back can be taken again.
        store.take(
            client, limit: BucketLimit(ratePerSecond: 5, burst: 1), completion: answers.record)
        store.giveBack(client, limit: limit) { _ in }
        store.take(client, limit: limit, completion: answers.record)
        clock.advance(seconds: 1)
        store.take(client, limit: limit, completion: answers.record)
        #expect(answers.all.suffix(3) == [.allowed, .allowed, .allowed])
    }

    @Test func devicePollsKeepTodaysSchedule() throws {
        let clock = ManualClock()
        let store = Self.store(clock)
        let code = try Self.key("device-code", .devicePoll)
        let answers = Answers<DevicePollSchedule.Decision>()
        store.poll(code, initialInterval: 5, lifetime: .seconds(600), completion: answers.record)
        clock.advance(seconds: 2)
        store.poll(code, initialInterval: 5, lifetime: .seconds(600), completion: answers.record)
        #expect(answers.all == [.poll(interval: 5), .slowDown(interval: 10)])
        let raised = Answers<Int?>()
        store.providerAskedToSlowDown(code, completion: raised.record)
        store.finishPolling(code) { _ in }
        store.providerAskedToSlowDown(code, completion: raised.record)
        #expect(raised.all == [15, nil])
    }
}
