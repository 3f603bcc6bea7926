/// What the rate limiter says about one request.
public enum RateDecision: Sendable, Equatable {
    case allowed
    /// Over the limit: `Retry-After` in whole seconds, 1 or more.
    case limited(retryAfterSeconds: Int)
}
