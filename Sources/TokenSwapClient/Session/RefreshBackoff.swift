/// When a session may ask for a refresh again after transient failures: `Retry-After`
/// when the server gave one (RFC 9110 §10.2.3), else exponential backoff with jitter.
struct RefreshBackoff: Sendable {
    private(set) var notBefore: Double? = nil
    private var failures = 0

    /// Records a failure at `now` and returns the wait it imposes. A `Retry-After` is
    /// clamped to an hour at most (RetryAfter), and a backoff ceiling the configuration
    /// makes NaN, negative or infinite is bounded too: `random` is handed a finite range.
    mutating func failed(
        at now: Double, retryAfterSeconds: Double?, configuration: TokenSessionConfiguration,
        random: (ClosedRange<Double>) -> Double
    ) -> Double {
        // Past 31 failures the doublings are capped anyway; the count stays small.
        failures = min(failures + 1, 31)
        let wait: Double
        if let retryAfterSeconds {
            wait = RetryAfter.clamped(retryAfterSeconds)
        } else {
            let doublings = Double(min(failures - 1, 30))
            let ceiling = min(
                configuration.backoffMaximumSeconds,
                configuration.backoffInitialSeconds * pow2(doublings))
            let bounded = ceiling.isNaN ? 0 : min(max(ceiling, 0), Self.longestSeconds)
            wait = random((bounded / 2)...bounded)
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

    /// The longest backoff, whatever the configuration says (an infinite maximum).
    private static let longestSeconds: Double = 86_400

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
