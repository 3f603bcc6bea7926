/// When a session may ask for a refresh again after transient failures: `Retry-After`
/// when the server gave one (RFC 9110 §10.2.3), else exponential backoff with jitter.
struct RefreshBackoff: Sendable {
    private(set) var notBefore: Double? = nil
    private var failures = 0

    /// Records a failure at `now` and returns the wait it imposes.
    mutating func failed(
        at now: Double, retryAfterSeconds: Double?, configuration: TokenSessionConfiguration,
        random: (ClosedRange<Double>) -> Double
    ) -> Double {
        failures += 1
        let wait: Double
        if let retryAfterSeconds {
            wait = retryAfterSeconds
        } else {
            let doublings = Double(min(failures - 1, 30))
            let ceiling = min(
                configuration.backoffMaximumSeconds,
                configuration.backoffInitialSeconds * pow2(doublings))
            wait = random((ceiling / 2)...ceiling)
        }
        notBefore = now + wait
        return wait
    }

    mutating func succeeded() {
        failures = 0
        notBefore = nil
    }

    /// Seconds still to wait at `now`, or nil when a request may go.
    func remaining(at now: Double) -> Double? {
        guard let notBefore, now < notBefore else { return nil }
        return notBefore - now
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
