import Synchronization
import TestSupport
import Testing
import Transport

@testable import TokenSwap

/// The token bucket and the bounded, sharded table of them, on an injected clock.
@Suite(.resourceClass(.compute)) struct TokenBucketTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let instant = Mutex<Deadline>(TokenBucketTests.at(1000))
        func advance(_ delta: Double) {
            instant.withLock { $0 = .after(seconds: delta, from: $0) }
        }
        var now: @Sendable () -> Deadline { { [self] in instant.withLock { $0 } } }
    }

    /// The instant `seconds` after the clock's zero.
    static func at(_ seconds: Double) -> Deadline {
        Deadline(uptimeNanoseconds: Deadline.nanoseconds(clamping: seconds))
    }

    @Test func aFullBurstThenTheRate() {
        var bucket = TokenBucket(burst: 3, now: Self.at(0))
        for _ in 0..<3 { #expect(bucket.take(now: Self.at(0), rate: 2, burst: 3) == .allowed) }
        #expect(bucket.take(now: Self.at(0), rate: 2, burst: 3) == .limited(retryAfterSeconds: 1))
        // Half a second at 2/s gives one token back, and only one.
        #expect(bucket.take(now: Self.at(0.5), rate: 2, burst: 3) == .allowed)
        #expect(bucket.take(now: Self.at(0.5), rate: 2, burst: 3) == .limited(retryAfterSeconds: 1))
        // A long pause refills to the burst, never beyond it.
        for _ in 0..<3 { #expect(bucket.take(now: Self.at(100), rate: 2, burst: 3) == .allowed) }
        #expect(bucket.take(now: Self.at(100), rate: 2, burst: 3) != .allowed)
    }

    @Test(arguments: [
        // rate per second, expected Retry-After with an empty bucket
        (0.1, 10), (0.25, 4), (0.3, 4), (1.0, 1), (50.0, 1),
    ])
    func retryAfterIsTheWholeSecondsUntilTheNextToken(rate: Double, seconds: Int) {
        var bucket = TokenBucket(burst: 1, now: Self.at(0))
        #expect(bucket.take(now: Self.at(0), rate: rate, burst: 1) == .allowed)
        #expect(
            bucket.take(now: Self.at(0), rate: rate, burst: 1)
                == .limited(retryAfterSeconds: seconds))
    }

    /// A rate of 1e-19 per second made the wait 10^19 s, and Int(_:) trapped on it.
    @Test func retryAfterIsBoundedForAnyRate() {
        var bucket = TokenBucket(burst: 1, now: Self.at(0))
        #expect(bucket.take(now: Self.at(0), rate: 1e-19, burst: 1) == .allowed)
        #expect(
            bucket.take(now: Self.at(0), rate: 1e-19, burst: 1)
                == .limited(retryAfterSeconds: Int(TokenBucket.longestRetryAfterSeconds)))
    }

    @Test func aClockGoingBackwardsAddsNothing() {
        var bucket = TokenBucket(burst: 1, now: Self.at(10))
        #expect(bucket.take(now: Self.at(10), rate: 1, burst: 1) == .allowed)
        #expect(bucket.take(now: Self.at(5), rate: 1, burst: 1) != .allowed)
        #expect(bucket.take(now: Self.at(10.5), rate: 1, burst: 1) != .allowed)
        #expect(bucket.take(now: Self.at(11), rate: 1, burst: 1) == .allowed)
    }

    @Test func clientsHaveTheirOwnBuckets() {
        let clock = ManualClock()
        let limiter = RateLimiter(ratePerSecond: 1, burst: 1, clock: clock.now)
        #expect(limiter.take(for: "10.0.0.1") == .allowed)
        #expect(limiter.take(for: "10.0.0.1") == .limited(retryAfterSeconds: 1))
        #expect(limiter.take(for: "10.0.0.2") == .allowed)
        clock.advance(1)
        #expect(limiter.take(for: "10.0.0.1") == .allowed)
    }

    @Test func rotatingAddressesCannotGrowTheTable() {
        let clock = ManualClock()
        let limiter = RateLimiter(
            ratePerSecond: 1, burst: 5, capacity: 64, shardCount: 4, clock: clock.now)
        for i in 0..<10_000 {
            _ = limiter.take(for: "10.\(i / 65536).\((i / 256) % 256).\(i % 256)")
            #expect(limiter.trackedClients <= 64)
        }
        // A client being limited right now keeps its bucket while idle ones make room.
        let busy = RateLimiter(
            ratePerSecond: 0.001, burst: 1, capacity: 4, shardCount: 1, clock: clock.now)
        #expect(busy.take(for: "victim") == .allowed)
        for i in 0..<2 { _ = busy.take(for: "other-\(i)") }
        #expect(busy.take(for: "victim") != .allowed)
    }

    @Test func aFullTableEvictsTheLeastRecentlyUsed() {
        let clock = ManualClock()
        let limiter = RateLimiter(
            ratePerSecond: 0.0001, burst: 1, capacity: 8, shardCount: 1, clock: clock.now)
        for i in 0..<8 {
            clock.advance(0.01)
            #expect(limiter.take(for: "c\(i)") == .allowed)
        }
        clock.advance(0.01)
        #expect(limiter.take(for: "c0") != .allowed)  // c0 is now the most recent
        clock.advance(0.01)
        #expect(limiter.take(for: "new") == .allowed)
        #expect(limiter.trackedClients == 8)
        // c1 was the least recently used: forgotten, so it starts full again; c0 was kept.
        #expect(limiter.take(for: "c1") == .allowed)
        #expect(limiter.take(for: "c0") != .allowed)
    }

    @Test func fullBucketsAreDroppedFirst() {
        let clock = ManualClock()
        let limiter = RateLimiter(
            ratePerSecond: 1, burst: 1, capacity: 2, shardCount: 1, clock: clock.now)
        #expect(limiter.take(for: "a") == .allowed)
        clock.advance(5)  // a refilled: forgetting it changes nothing
        #expect(limiter.take(for: "b") == .allowed)
        #expect(limiter.take(for: "c") == .allowed)
        #expect(limiter.trackedClients == 2)
        #expect(limiter.take(for: "b") == .limited(retryAfterSeconds: 1))
    }

    @Test func concurrentTakesNeverHandOutMoreThanTheBurst() async {
        let clock = ManualClock()
        let limiter = RateLimiter(ratePerSecond: 1, burst: 50, clock: clock.now)
        let allowed = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var count = 0
                    for _ in 0..<100 where limiter.take(for: "one") == .allowed { count += 1 }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(allowed == 50)
    }

    /// A limit that counts outcomes known later (failed legacy opens) takes first and
    /// gives back what did not fail; never more than the burst.
    @Test func aTokenGivenBackCanBeTakenAgainButNeverPastTheBurst() {
        let clock = ManualClock()
        let limiter = RateLimiter(ratePerSecond: 0.001, burst: 2, clock: clock.now)
        #expect(limiter.take(for: "192.0.2.1") == .allowed)
        #expect(limiter.take(for: "192.0.2.1") == .allowed)
        #expect(limiter.take(for: "192.0.2.1") != .allowed)
        limiter.giveBack(for: "192.0.2.1")
        #expect(limiter.take(for: "192.0.2.1") == .allowed)
        for _ in 0..<5 { limiter.giveBack(for: "192.0.2.1") }
        #expect(limiter.take(for: "192.0.2.1") == .allowed)
        #expect(limiter.take(for: "192.0.2.1") == .allowed)
        #expect(limiter.take(for: "192.0.2.1") != .allowed)
        // A client never seen has nothing to give back, and starts full.
        limiter.giveBack(for: "192.0.2.2")
        #expect(limiter.trackedClients == 1)
        // IPv6 clients give back to their prefix's bucket.
        #expect(limiter.take(for: "2001:db8::1") == .allowed)
        #expect(limiter.take(for: "2001:db8::2") == .allowed)
        limiter.giveBack(for: "2001:db8::3")
        #expect(limiter.take(for: "2001:db8::4") == .allowed)
        #expect(limiter.take(for: "2001:db8::5") != .allowed)
    }
}
