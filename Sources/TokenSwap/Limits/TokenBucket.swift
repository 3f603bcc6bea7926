import Transport

/// One client's allowance (the token bucket algorithm): it holds up to `burst` tokens,
/// refills at `rate` per second, and each request takes one. Times are `Deadline`s (the
/// monotonic clock every duration in the service is measured on), passed in, so the
/// arithmetic is tested without sleeping.
struct TokenBucket: Sendable, Equatable {
    private(set) var tokens: Double
    /// When `tokens` was last brought up to date.
    private(set) var updated: Deadline
    static let longestRetryAfterSeconds = 86_400.0

    /// A new client starts with the whole burst.
    init(burst: Int, now: Deadline) {
        tokens = Double(burst)
        updated = now
    }

    /// Takes one token if there is one. Otherwise the whole seconds until there will be
    /// (at least 1, for `Retry-After`).
    mutating func take(now: Deadline, rate: Double, burst: Int) -> RateDecision {
        refill(now: now, rate: rate, burst: burst)
        if tokens >= 1 {
            tokens -= 1
            return .allowed
        }
        // Bounded before Int(_:), which traps on a value it cannot hold (and on NaN): the
        // configured rate has a floor, but a day is the longest wait worth announcing, and a
        // rate of zero, infinity or NaN must not trap either.
        let wait = rate > 0 ? (1 - tokens) / rate : Self.longestRetryAfterSeconds
        let bounded =
            wait.isNaN ? Self.longestRetryAfterSeconds : min(wait, Self.longestRetryAfterSeconds)
        return .limited(retryAfterSeconds: max(1, Int(bounded.rounded(.up))))
    }

    /// Puts back the token a request took, when what it was taken for did not happen
    /// (`RateLimiter.giveBack`); never above the burst.
    mutating func giveBack(burst: Int) {
        tokens = min(Double(burst), tokens + 1)
    }

    /// True when the bucket has refilled completely: forgetting it changes nothing, since
    /// a new bucket starts full too.
    func isFull(now: Deadline, rate: Double, burst: Int) -> Bool {
        tokens + Self.seconds(from: updated, to: now) * rate >= Double(burst)
    }

    private mutating func refill(now: Deadline, rate: Double, burst: Int) {
        // A clock that went backwards (it should not: monotonic) adds nothing; neither does
        // a product that is not a number (an infinite rate times no time at all).
        let added = Self.seconds(from: updated, to: now) * rate
        if !added.isNaN { tokens = min(Double(burst), tokens + added) }
        updated = max(updated, now)
    }

    /// Seconds from `start` to `end`: 0 when `end` is not later (saturating, never a
    /// negative or wrapped span).
    private static func seconds(from start: Deadline, to end: Deadline) -> Double {
        let (whole, attoseconds) = end.duration(since: start).components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
