import Synchronization

/// When each device code may next be polled (RFC 8628 §3.5, CONTRACT §7): a poll sooner
/// than the code's current interval is answered `slow_down` here, without calling the
/// provider, and raises that code's interval by 5 s; so does a `slow_down` from the
/// provider. Kept per process, in memory: a device that polls another copy of the
/// service just gets that copy's (fresh) view, which is no worse than no check.
///
/// Bounded: at most `capacity` device codes are tracked; each entry lives until its
/// code expires, and at the cap the expired and then the oldest entries go first
/// (`ExpiringGrantStore`). An entry only exists for a code that opened, that is one
/// this service issued, and issuing is rate limited.
final class DevicePollSchedule: Sendable {
    struct Entry: Sendable {
        var intervalSeconds: Int
        var lastPoll: ContinuousClock.Instant
    }

    /// What a poll may do now.
    enum Decision: Equatable {
        /// Call the provider; `interval` is the code's current interval.
        case poll(interval: Int)
        /// Too soon: answer `slow_down` with the raised interval.
        case slowDown(interval: Int)
    }

    /// RFC 8628 §3.5: "the interval MUST be increased by 5 seconds".
    static let slowDownStepSeconds = 5

    private let entries: Mutex<ExpiringGrantStore<Entry>>

    init(capacity: Int = 100_000) {
        entries = Mutex(ExpiringGrantStore(capacity: capacity))
    }

    var count: Int { entries.withLock { $0.count } }

    /// Records a poll of `key` (the provider's device code) at `now` and decides it.
    /// `initialInterval` is the interval sealed in the code; `lifetime` how long the
    /// code still lives (the entry is dropped after).
    func poll(
        _ key: String, initialInterval: Int, lifetime: Duration,
        now: ContinuousClock.Instant = .now
    ) -> Decision {
        entries.withLock { store in
            guard case .live(var entry) = store.lookup(key, now: now) else {
                store.insert(
                    Entry(intervalSeconds: initialInterval, lastPoll: now), for: key,
                    expiresAt: now + lifetime, now: now)
                return .poll(interval: initialInterval)
            }
            let tooSoon = now < entry.lastPoll + .seconds(entry.intervalSeconds)
            if tooSoon { entry.intervalSeconds += Self.slowDownStepSeconds }
            entry.lastPoll = now
            let interval = entry.intervalSeconds
            store.update(key) { $0 = entry }
            return tooSoon ? .slowDown(interval: interval) : .poll(interval: interval)
        }
    }

    /// The provider said `slow_down`: raise the interval as a local one would.
    func providerAskedToSlowDown(_ key: String) -> Int? {
        entries.withLock { store in
            var raised: Int?
            store.update(key) {
                $0.intervalSeconds += Self.slowDownStepSeconds
                raised = $0.intervalSeconds
            }
            return raised
        }
    }

    /// The flow ended (tokens, denied, expired): the code will not be polled again.
    func finish(_ key: String) {
        _ = entries.withLock { $0.remove(key) }
    }
}
