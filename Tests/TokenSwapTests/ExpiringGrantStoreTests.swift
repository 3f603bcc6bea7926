import Testing

@testable import TokenSwap

@Suite struct ExpiringGrantStoreTests {
    @Test func capacityDropsExpiredFirstThenOldest() {
        var store = ExpiringGrantStore<Int>(capacity: 3)
        let now = ContinuousClock.now
        store.insert(1, for: "a", expiresAt: now + .seconds(60), now: now)
        store.insert(2, for: "b", expiresAt: now - .seconds(1), now: now)
        store.insert(3, for: "c", expiresAt: now + .seconds(60), now: now)
        store.insert(4, for: "d", expiresAt: now + .seconds(60), now: now)
        // "b" had expired, so it went and "a" stayed.
        guard case .live(1) = store.lookup("a", now: now) else { Issue.record("a dropped"); return }
        store.insert(5, for: "e", expiresAt: now + .seconds(60), now: now)
        guard case .absent = store.lookup("a", now: now) else {
            Issue.record("oldest kept"); return
        }
        #expect(store.count == 3)
    }

    @Test func lookupRemovesExpired() {
        var store = ExpiringGrantStore<Int>(capacity: 3)
        let now = ContinuousClock.now
        store.insert(1, for: "a", expiresAt: now + .seconds(1), now: now)
        guard case .expired = store.lookup("a", now: now + .seconds(2)) else {
            Issue.record("not expired"); return
        }
        #expect(store.count == 0)
    }
}
