import Testing
import Transport

@testable import TokenSwap

@Suite struct ExpiringGrantStoreTests {
    @Test func capacityDropsExpiredFirstThenOldest() {
        var store = ExpiringGrantStore<Int>(capacity: 3)
        let now = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        store.insert(1, for: "a", expiresAt: .after(seconds: 60, from: now), now: now)
        store.insert(
            2, for: "b",
            expiresAt: Deadline(uptimeNanoseconds: now.uptimeNanoseconds - 1_000_000_000), now: now)
        store.insert(3, for: "c", expiresAt: .after(seconds: 60, from: now), now: now)
        store.insert(4, for: "d", expiresAt: .after(seconds: 60, from: now), now: now)
        // "b" had expired, so it went and "a" stayed.
        guard case .live(1) = store.lookup("a", now: now) else { Issue.record("a dropped"); return }
        store.insert(5, for: "e", expiresAt: .after(seconds: 60, from: now), now: now)
        guard case .absent = store.lookup("a", now: now) else {
            Issue.record("oldest kept"); return
        }
        #expect(store.count == 3)
    }

    @Test func lookupRemovesExpired() {
        var store = ExpiringGrantStore<Int>(capacity: 3)
        let now = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        store.insert(1, for: "a", expiresAt: .after(seconds: 1, from: now), now: now)
        guard case .expired = store.lookup("a", now: .after(seconds: 2, from: now)) else {
            Issue.record("not expired"); return
        }
        #expect(store.count == 0)
    }
}
