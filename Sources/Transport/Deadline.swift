import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A point on the monotonic uptime clock (Dispatch's) by which something must have
/// happened: the one representation of time for deadlines in the server, the client, its
/// pools and connections. Seconds from configuration and callers are clamped once, here
/// (NaN and negatives to 0, at most `maxSeconds`), so no conversion further down can
/// trap on NaN or overflow.
package struct Deadline: Sendable, Hashable, Comparable {
    /// Nanoseconds since boot (`DispatchTime.uptimeNanoseconds`).
    package let uptimeNanoseconds: UInt64

    /// The longest span a deadline may be set to: about 11.6 days.
    package static let maxSeconds = 1e6

    package init(uptimeNanoseconds: UInt64) {
        self.uptimeNanoseconds = uptimeNanoseconds
    }

    /// Now on the uptime clock: `CLOCK_MONOTONIC`, the clock `DispatchTime` reads on
    /// Linux, read directly (a request reads it several times; Dispatch's conversions
    /// around it cost as much again).
    package static var now: Deadline {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Deadline(
            uptimeNanoseconds: UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
    }

    /// Never: for a connection with no phase deadline running.
    package static let never = Deadline(uptimeNanoseconds: .max)

    /// `seconds` after `start` (now by default), clamped to 0...`maxSeconds`.
    package static func after(seconds: Double, from start: Deadline = .now) -> Deadline {
        let (sum, overflow) = start.uptimeNanoseconds.addingReportingOverflow(
            nanoseconds(clamping: seconds))
        return Deadline(uptimeNanoseconds: overflow ? .max : sum)
    }

    /// `duration` after `start`, clamped as `after(seconds:)` clamps (a negative one:
    /// `start`), in whole nanoseconds. In integers: the count of attoseconds is divided
    /// once, as a 128-bit dividend by a 64-bit divisor, where `Duration.components` and
    /// `Duration / Duration` work through general 128-bit arithmetic and `Double`.
    package static func after(_ duration: Duration, from start: Deadline = .now) -> Deadline {
        let attoseconds = duration.attoseconds
        guard attoseconds > 0 else { return start }
        let high = UInt64(truncatingIfNeeded: attoseconds >> 64)
        let low = UInt64(truncatingIfNeeded: attoseconds)
        // The quotient fits in 64 bits exactly when the high word is below the divisor.
        let nanoseconds =
            high < attosecondsPerNanosecond
            ? attosecondsPerNanosecond.dividingFullWidth((high, low)).quotient : .max
        let (sum, overflow) = start.uptimeNanoseconds.addingReportingOverflow(
            min(nanoseconds, maxNanoseconds))
        return Deadline(uptimeNanoseconds: overflow ? .max : sum)
    }

    private static let attosecondsPerNanosecond: UInt64 = 1_000_000_000
    /// `maxSeconds` in nanoseconds, as `nanoseconds(clamping:)` gives it.
    private static let maxNanoseconds = nanoseconds(clamping: maxSeconds)

    /// The earlier of two deadlines.
    package func earlier(_ other: Deadline) -> Deadline { min(self, other) }

    /// Seconds left until the deadline from `now` (0 once it has passed, at most
    /// `maxSeconds`).
    package func secondsLeft(from now: Deadline = .now) -> Double {
        guard uptimeNanoseconds > now.uptimeNanoseconds else { return 0 }
        return min(Double(uptimeNanoseconds - now.uptimeNanoseconds) / 1e9, Self.maxSeconds)
    }

    /// Whether the deadline has passed at `now`.
    package func hasPassed(at now: Deadline = .now) -> Bool {
        uptimeNanoseconds <= now.uptimeNanoseconds
    }

    /// The time from `start` to this point (zero when `start` is later): a duration
    /// measured on the same clock as every deadline.
    package func duration(since start: Deadline) -> Duration {
        guard uptimeNanoseconds > start.uptimeNanoseconds else { return .zero }
        return .nanoseconds(Int64(clamping: uptimeNanoseconds - start.uptimeNanoseconds))
    }

    /// The deadline as a Dispatch time, for timers.
    package var dispatchTime: DispatchTime {
        DispatchTime(uptimeNanoseconds: uptimeNanoseconds)
    }

    package static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.uptimeNanoseconds < rhs.uptimeNanoseconds
    }

    /// `seconds` as nanoseconds, clamped to 0...`maxSeconds` (NaN as 0).
    package static func nanoseconds(clamping seconds: Double) -> UInt64 {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), maxSeconds)
        return UInt64(bounded * 1e9)
    }
}
