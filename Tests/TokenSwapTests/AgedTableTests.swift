import TestSupport
import Testing
import Transport

@testable import TokenSwap

/// The table under every shard of the memory store (CONTRACT §12): its own index from key
/// to slot answers like a dictionary through inserts, evictions at the cap, removals and
/// expiry, whatever the churn.
@Suite(.resourceClass(.compute)) struct AgedTableTests {
    @Test func theIndexAnswersLikeADictionaryThroughChurn() throws {
        let now = Deadline(uptimeNanoseconds: 1_000_000_000)
        let later = Deadline(uptimeNanoseconds: 100_000_000_000)
        var table = AgedTable<Int>(capacity: 300)
        var model: [StateKey: Int] = [:]
        var order: [StateKey] = []
        var generator = SplitMix64(seed: 20)
        let keys = try (0..<1000).map { try #require(StateKey(.refresh, value: "K\($0)")) }
        for step in 0..<20_000 {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            switch generator.next() % 3 {
            case 0:
                #expect(table.remove(key) == model.removeValue(forKey: key))
                order.removeAll { $0 == key }
            default:
                let evicted = table.insert(step, for: key, expiresAt: later, now: now)
                order.removeAll { $0 == key }
                if model[key] == nil, order.count >= 300 {
                    #expect(evicted?.key == order[0])
                    model[order.removeFirst()] = nil
                } else {
                    #expect(evicted == nil)
                }
                model[key] = step
                order.append(key)
            }
            #expect(table.count == model.count)
        }
        for key in keys {
            #expect(table.value(for: key, now: now) == model[key])
        }
        #expect(table.keysOldestFirst == order)
    }

    /// The one-lookup insert (a claim of the replay window, a DPoP proof id: CONTRACT §12,
    /// §13) answers a live entry, writes an absent or expired one, and at the cap evicts the
    /// oldest, which it answers.
    @Test func aLookupOrInsertEvictsTheOldestAtTheCap() throws {
        let now = Deadline(uptimeNanoseconds: 1_000_000_000)
        let later = Deadline(uptimeNanoseconds: 100_000_000_000)
        var table = AgedTable<Bool>(capacity: 3)
        let keys = try (0..<5).map { try #require(StateKey(.proofID, value: "J\($0)")) }
        func valueOrInsert(_ value: Bool, _ key: StateKey, now: Deadline = now)
            -> (found: Bool?, evicted: StateKey?)
        {
            let (found, evicted) = table.valueOrInsert(value, for: key, expiresAt: later, now: now)
            return (found, evicted?.key)
        }
        for key in keys[..<3] {
            #expect(valueOrInsert(true, key) == (nil, nil))
        }
        #expect(valueOrInsert(false, keys[0]) == (true, nil))
        #expect(valueOrInsert(true, keys[3]) == (nil, keys[0]))
        #expect(table.count == 3)
        #expect(table.keysOldestFirst == Array(keys[1...3]))
        // Past its expiry an entry is written again, as absent.
        #expect(valueOrInsert(true, keys[1], now: later) == (nil, nil))
        #expect(table.keysOldestFirst == [keys[2], keys[3], keys[1]])
    }
}
