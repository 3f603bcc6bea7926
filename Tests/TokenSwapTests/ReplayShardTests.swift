import Testing
import Transport

@testable import TokenSwap

/// One shard of the memory store's replay table (CONTRACT §12): kept answers written one
/// after another into the shard's ring (`KeptRing`) and read back whole across its wrap,
/// the oldest evicted first by the byte budget, by the entry cap and when the buffer is at
/// its limit, an answer larger than the budget kept alone, the buffer grown on demand and
/// a released answer zeroed and unreadable.
@Suite struct ReplayShardTests {
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000)
    static let window = Deadline(uptimeNanoseconds: 61_000_000_000)

    static func key(_ index: Int) throws -> StateKey {
        try #require(StateKey(.refresh, scope: "spotify", value: "R\(index)"))
    }

    static func answer(_ index: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) | 1 }
    }

    /// Claims `key` and keeps `answer` under it, as a refresh does; answers the keys it
    /// evicted: the other keys live before that the shard no longer holds, oldest first,
    /// as many as the evictions it counted (an expired entry it dropped is no eviction).
    static func keep(
        _ answer: [UInt8], _ key: StateKey, in shard: inout ReplayShard,
        now: Deadline = start, expiresAt: Deadline = window
    ) -> [StateKey] {
        let before = shard.keysOldestFirst.filter { other in
            other != key && shard.expiresAt(of: other).map { $0 > now } == true
        }
        var evicted = ReplayShard.Evicted()
        _ = shard.valueOrInsert(
            .inFlight(until: expiresAt, waiters: []), for: key, expiresAt: expiresAt, now: now,
            evicted: &evicted)
        _ = shard.keep(answer, for: key, expiresAt: expiresAt, now: now, evicted: &evicted)
        let after = Set(shard.keysOldestFirst)
        let gone = before.filter { !after.contains($0) }
        #expect(evicted.count == gone.count)
        #expect(evicted.waiters.isEmpty)
        return gone
    }

    /// The sealed bytes kept under `key`, nil when none.
    static func kept(_ key: StateKey, in shard: inout ReplayShard, now: Deadline = start)
        -> [UInt8]?
    {
        guard case .kept(let span, _)? = shard.value(for: key, now: now) else { return nil }
        return shard.answer(span)
    }

    @Test func answersReadBackWholeAcrossTheWrap() throws {
        // Room for three 30-byte answers; the cap holds two, so the third write wraps.
        var shard = ReplayShard(capacity: 2, byteBudget: 100)
        var evictedKeys: [StateKey] = []
        for index in 0..<12 {
            evictedKeys += Self.keep(Self.answer(index, count: 30), try Self.key(index), in: &shard)
            #expect(Self.kept(try Self.key(index), in: &shard) == Self.answer(index, count: 30))
            if index > 0 {
                let previous = try Self.key(index - 1)
                #expect(Self.kept(previous, in: &shard) == Self.answer(index - 1, count: 30))
            }
            #expect(shard.ring.capacity <= 100)
        }
        #expect(try evictedKeys == (0..<10).map { try Self.key($0) })
        #expect(shard.keysOldestFirst == [try Self.key(10), try Self.key(11)])
        #expect(shard.ring.liveByteCount == 60)
    }

    @Test func theByteBudgetEvictsTheOldestAnswersInKeepOrder() throws {
        var shard = ReplayShard(capacity: 100, byteBudget: 100)
        for index in 0..<3 {
            #expect(Self.keep(Self.answer(index, count: 30), try Self.key(index), in: &shard) == [])
        }
        // 90 + 30 is over the budget: the oldest goes; 90 + 50 is: the next two.
        #expect(
            Self.keep(Self.answer(3, count: 30), try Self.key(3), in: &shard) == [try Self.key(0)])
        #expect(
            Self.keep(Self.answer(4, count: 50), try Self.key(4), in: &shard) == [
                try Self.key(1), try Self.key(2),
            ])
        #expect(shard.keysOldestFirst == [try Self.key(3), try Self.key(4)])
        #expect(shard.ring.liveByteCount == 80)
        #expect(Self.kept(try Self.key(0), in: &shard) == nil)
        #expect(Self.kept(try Self.key(4), in: &shard) == Self.answer(4, count: 50))
    }

    @Test func theEntryCapEvictsTheOldestAndReleasesItsAnswer() throws {
        var shard = ReplayShard(capacity: 3, byteBudget: 1 << 20)
        for index in 0..<3 {
            _ = Self.keep(Self.answer(index, count: 40), try Self.key(index), in: &shard)
        }
        #expect(
            Self.keep(Self.answer(3, count: 40), try Self.key(3), in: &shard) == [try Self.key(0)])
        #expect(
            Self.keep(Self.answer(4, count: 40), try Self.key(4), in: &shard) == [try Self.key(1)])
        #expect(try shard.keysOldestFirst == [2, 3, 4].map { try Self.key($0) })
        // The evicted answers are released in the ring, not just unreachable.
        #expect(shard.ring.liveByteCount == 120)
        #expect(shard.ring.buffer.filter { $0 != 0 }.count == 120)
    }

    @Test func aBufferAtItsLimitEvictsTheOldestLiveAnswer() throws {
        // 100 bytes hold three 30-byte answers but not a fourth after a skipped end.
        var shard = ReplayShard(capacity: 100, byteBudget: 100)
        for index in 0..<3 {
            _ = Self.keep(Self.answer(index, count: 30), try Self.key(index), in: &shard)
        }
        // Within the budget (90 - 30 + 35 ≤ 100 after the first eviction)...
        var evictedKeys = Self.keep(Self.answer(3, count: 35), try Self.key(3), in: &shard)
        // ...but 35 bytes do not fit at the head (10 to the end): the next oldest goes too.
        #expect(evictedKeys == [try Self.key(0), try Self.key(1)])
        evictedKeys = Self.keep(Self.answer(4, count: 10), try Self.key(4), in: &shard)
        #expect(evictedKeys == [])
        #expect(Self.kept(try Self.key(3), in: &shard) == Self.answer(3, count: 35))
        #expect(Self.kept(try Self.key(4), in: &shard) == Self.answer(4, count: 10))
        #expect(shard.ring.capacity == 100)
    }

    @Test func anAnswerLargerThanTheBudgetIsKeptAloneAndItsBufferGoesWithIt() throws {
        var shard = ReplayShard(capacity: 100, byteBudget: 100)
        _ = Self.keep(Self.answer(0, count: 30), try Self.key(0), in: &shard)
        _ = Self.keep(Self.answer(1, count: 30), try Self.key(1), in: &shard)
        #expect(
            Self.keep(Self.answer(2, count: 250), try Self.key(2), in: &shard) == [
                try Self.key(0), try Self.key(1),
            ])
        #expect(shard.keysOldestFirst == [try Self.key(2)])
        #expect(Self.kept(try Self.key(2), in: &shard) == Self.answer(2, count: 250))
        #expect(shard.ring.capacity == 250)
        // The next answer evicts it, and the buffer is back within the budget.
        #expect(
            Self.keep(Self.answer(3, count: 30), try Self.key(3), in: &shard) == [try Self.key(2)])
        #expect(shard.ring.capacity == 100)
        #expect(Self.kept(try Self.key(3), in: &shard) == Self.answer(3, count: 30))
    }

    @Test func theBufferGrowsOnDemandUpToTheBudget() throws {
        let budget = 4 * KeptRing.initialCapacity
        var shard = ReplayShard(capacity: 1000, byteBudget: budget)
        #expect(shard.ring.capacity == 0)
        var capacities: [Int] = []
        for index in 0..<60 {
            #expect(
                Self.keep(Self.answer(index, count: 1000), try Self.key(index), in: &shard) == [])
            if capacities.last != shard.ring.capacity { capacities.append(shard.ring.capacity) }
        }
        // A quarter larger each time, from the first size.
        #expect(capacities == [16_384, 20_480, 25_600, 32_000, 40_000, 50_000, 62_500])
        // The live answers moved with the growth and read back whole.
        for index in 0..<60 {
            #expect(Self.kept(try Self.key(index), in: &shard) == Self.answer(index, count: 1000))
        }
        #expect(shard.count == 60)
    }

    @Test func aRemovedAnswerIsZeroedAndUnreadable() throws {
        var shard = ReplayShard(capacity: 10, byteBudget: 1000)
        let key = try Self.key(0)
        _ = Self.keep(Self.answer(0, count: 64), key, in: &shard)
        guard case .kept(let span, _)? = shard.value(for: key, now: Self.start) else {
            Issue.record("not kept")
            return
        }
        #expect(shard.ring.buffer.contains { $0 != 0 })
        _ = shard.remove(key, now: Self.start)
        #expect(shard.ring.bytes(span) == nil)
        #expect(shard.ring.buffer.allSatisfy { $0 == 0 })
        #expect(shard.ring.liveByteCount == 0)
    }

    /// An answer written in place (a kept answer sealed into the ring) is kept as one
    /// appended would be; one whose write fails leaves no record, no byte and a free key.
    @Test func anAnswerWrittenInPlaceIsKeptAndAFailedWriteLeavesNothing() throws {
        var shard = ReplayShard(capacity: 10, byteBudget: 1000)
        var evicted = ReplayShard.Evicted()
        /// Claims `key` and keeps `count` bytes that `write` writes in place, as a refresh
        /// that seals its answer into the ring does.
        func keepInPlace(
            _ key: StateKey, count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Bool
        ) -> ReplayShard.Keeping {
            _ = shard.valueOrInsert(
                .inFlight(until: Self.window, waiters: []), for: key, expiresAt: Self.window,
                now: Self.start, evicted: &evicted)
            return shard.keep(
                count: count, for: key, expiresAt: Self.window, now: Self.start,
                evicted: &evicted, write: write)
        }
        let key = try Self.key(0)
        let written = keepInPlace(key, count: 40) { target in
            #expect(target.count == 40)
            target.copyBytes(from: Self.answer(0, count: 40))
            return true
        }
        guard case .kept(let previous, let span) = written, case .inFlight? = previous else {
            Issue.record("not kept in place: \(written)")
            return
        }
        #expect(shard.answer(span) == Self.answer(0, count: 40))
        #expect(Self.kept(key, in: &shard) == Self.answer(0, count: 40))

        let failing = try Self.key(1)
        let failed = keepInPlace(failing, count: 50) { target in
            // What a seal that fails halfway would leave behind.
            target.copyBytes(from: Self.answer(1, count: 50))
            return false
        }
        guard case .notKept(let removed) = failed, case .inFlight? = removed else {
            Issue.record("a failed write was kept: \(failed)")
            return
        }
        #expect(shard.value(for: failing, now: Self.start) == nil)
        #expect(shard.ring.recordCount == 1)
        #expect(shard.ring.liveByteCount == 40)
        // Nothing of the failed write is left: only the kept answer's bytes are not zero.
        #expect(shard.ring.buffer.filter { $0 != 0 }.count == 40)
        #expect(evicted.isEmpty)
        // The next answer goes where the failed one would have.
        _ = Self.keep(Self.answer(2, count: 30), try Self.key(2), in: &shard)
        #expect(Self.kept(try Self.key(2), in: &shard) == Self.answer(2, count: 30))
        #expect(Self.kept(key, in: &shard) == Self.answer(0, count: 40))
    }

    @Test func answersTheTableDroppedOnExpiryLeaveTheRingWithoutAnEviction() throws {
        var shard = ReplayShard(capacity: 100, byteBudget: 100)
        let soon = Deadline(uptimeNanoseconds: 2_000_000_000)
        for index in 0..<3 {
            _ = Self.keep(
                Self.answer(index, count: 30), try Self.key(index), in: &shard, expiresAt: soon)
        }
        // Later, the table drops the expired entries on its own; the ring finds them gone.
        let later = Deadline(uptimeNanoseconds: 3_000_000_000)
        #expect(Self.kept(try Self.key(0), in: &shard, now: later) == nil)
        #expect(
            Self.keep(Self.answer(3, count: 60), try Self.key(3), in: &shard, now: later) == [])
        #expect(Self.kept(try Self.key(3), in: &shard, now: later) == Self.answer(3, count: 60))
        #expect(shard.ring.liveByteCount <= 100)
    }
}
