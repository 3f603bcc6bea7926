/// A session's timing, each with its unit in the name.
public struct TokenSessionConfiguration: Sendable, Hashable {
    /// Refresh this long before the access token expires, so a request does not leave
    /// with a token that dies on the way (and a clock tick of drift does not matter).
    public var refreshSkewSeconds: Double = 60
    /// After a failed refresh (5xx, no answer, an unexpected rejection) the next attempt
    /// waits this long, doubling per failure up to `backoffMaximumSeconds`, each wait
    /// drawn at random from its upper half so many devices do not return in step.
    public var backoffInitialSeconds: Double = 1
    public var backoffMaximumSeconds: Double = 300
    /// `TokenSessionEvent.grantEndingSoon` comes once the grant has less than this left
    /// (CONTRACT §14; a week by default).
    public var grantEndingWarningSeconds: Double = 7 * 24 * 3600

    public init(
        refreshSkewSeconds: Double = 60, backoffInitialSeconds: Double = 1,
        backoffMaximumSeconds: Double = 300, grantEndingWarningSeconds: Double = 7 * 24 * 3600
    ) {
        self.refreshSkewSeconds = refreshSkewSeconds
        self.backoffInitialSeconds = backoffInitialSeconds
        self.backoffMaximumSeconds = backoffMaximumSeconds
        self.grantEndingWarningSeconds = grantEndingWarningSeconds
    }
}
