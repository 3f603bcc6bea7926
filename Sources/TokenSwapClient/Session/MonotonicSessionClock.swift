/// `SessionClock` on `ContinuousClock`: monotonic, and it keeps counting while the device
/// sleeps (an access token expires during sleep too).
public struct MonotonicSessionClock: SessionClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Double {
        let elapsed = origin.duration(to: ContinuousClock.now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    public func sleep(seconds: Double) async throws {
        try await Task.sleep(for: .seconds(seconds), clock: .continuous)
    }
}
