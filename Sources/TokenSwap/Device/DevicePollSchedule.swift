import Synchronization
import Transport

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
package final class DevicePollSchedule: Sendable {
    struct Entry: Sendable {
        var intervalSeconds: Int
        var lastPoll: Deadline
    }

    /// What a poll may do now.
    package enum Decision: Sendable, Equatable {
        /// Call the provider; `interval` is the code's current interval.
        case poll(interval: Int)
        /// Too soon: answer `slow_down` with the raised interval.
        case slowDown(interval: Int)
    }

    /// RFC 8628 §3.5: "the interval MUST be increased by 5 seconds".
    static let slowDownStepSeconds = 5

    /// An hour: the longest interval a provider may ask for (`DeviceAuthorizationAnswer`)
    /// and the ceiling of every raise. A device told to wait longer than its code lives
    /// learns nothing more, and the cap keeps `+ 5` and the clock arithmetic in range
    /// however often a device polls too soon (CONTRACT §15).
    static let longestIntervalSeconds = 3600

    /// `interval` raised by one step, saturating at `longestIntervalSeconds` (and at least
    /// one step above the shortest interval, whatever `interval` was).
    package static func raised(_ interval: Int) -> Int {
        let clamped = min(max(interval, 1), longestIntervalSeconds)
        return min(clamped + slowDownStepSeconds, longestIntervalSeconds)
    }

    /// The longest an entry is kept: the longest a device code lives
    /// (`DeviceAuthorizationAnswer.longestExpiresInSeconds`).
    static let longestLifetime = Duration.seconds(DeviceAuthorizationAnswer.longestExpiresInSeconds)

    private let entries: Mutex<ExpiringGrantStore<Entry>>

    package init(capacity: Int = 100_000) {
        entries = Mutex(ExpiringGrantStore(capacity: capacity))
    }

    var count: Int { entries.withLock { $0.count } }

    /// Records a poll of `key` (the provider's device code) at `now` and decides it.
    /// `initialInterval` is the interval sealed in the code; `lifetime` how long the
    /// code still lives (the entry is dropped after). Both come from a sealed code and
    /// are clamped here as well: an interval to `1...longestIntervalSeconds`, a lifetime
    /// to `longestLifetime`.
    package func poll(
        _ key: String, initialInterval: Int, lifetime: Duration,
        now: Deadline = .now
    ) -> Decision {
        let initialInterval = min(max(initialInterval, 1), Self.longestIntervalSeconds)
        let lifetime = min(max(lifetime, .zero), Self.longestLifetime)
        let expiresAt = Deadline.after(seconds: Double(lifetime.components.seconds), from: now)
        return entries.withLock { store in
            guard case .live(var entry) = store.lookup(key, now: now) else {
                store.insert(
                    Entry(intervalSeconds: initialInterval, lastPoll: now), for: key,
                    expiresAt: expiresAt, now: now)
                return .poll(interval: initialInterval)
            }
            let nextPoll = Deadline.after(
                seconds: Double(entry.intervalSeconds), from: entry.lastPoll)
            let tooSoon = !nextPoll.hasPassed(at: now)
            if tooSoon { entry.intervalSeconds = Self.raised(entry.intervalSeconds) }
            entry.lastPoll = now
            let interval = entry.intervalSeconds
            store.update(key) { $0 = entry }
            return tooSoon ? .slowDown(interval: interval) : .poll(interval: interval)
        }
    }

    /// The provider said `slow_down`: raise the interval as a local one would.
    package func providerAskedToSlowDown(_ key: String) -> Int? {
        entries.withLock { store in
            var raised: Int?
            store.update(key) {
                $0.intervalSeconds = Self.raised($0.intervalSeconds)
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
