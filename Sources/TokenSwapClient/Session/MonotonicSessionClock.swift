/// `SessionClock` on `ContinuousClock`: monotonic, and it keeps counting while the device
/// sleeps (an access token expires during sleep too).
package struct MonotonicSessionClock: SessionClock {
    private let origin = ContinuousClock.now

    package init() {}

    package func now() -> Double {
        let elapsed = origin.duration(to: ContinuousClock.now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// `Duration.seconds(_:)` traps on NaN, infinity and values past its range, so the
    /// wait is bounded first: NaN and negative waits are none, and past `longestSleepSeconds`
    /// (about 31 years) it is that long.
    package func sleep(seconds: Double) async throws {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), Self.longestSleepSeconds)
        try await Task.sleep(for: .seconds(bounded), clock: .continuous)
    }

    static let longestSleepSeconds: Double = 1_000_000_000
}
