import HTTPCore

/// A `RateLimiter` keyed by the client address a request comes from (the TCP peer, or
/// `X-Forwarded-For` from a trusted proxy), for limits one endpoint adds on top of
/// `TOKENSWAP_RATE_LIMIT`: `/device/code`'s `TOKENSWAP_DEVICE_RATE_LIMIT` (RFC 8628 §5.4),
/// `/introspect`'s `TOKENSWAP_INTROSPECTION_RATE_LIMIT` (RFC 7662 §4), failed legacy
/// opens' `TOKENSWAP_LEGACY_FAILURE_LIMIT` (CONTRACT §9).
public struct ClientRateLimit: Sendable {
    public let limiter: RateLimiter
    public let trustedProxies: TrustedProxies

    public init(limiter: RateLimiter, trustedProxies: TrustedProxies) {
        self.limiter = limiter
        self.trustedProxies = trustedProxies
    }

    /// `perMinute` requests a minute, all of them allowed at once (the burst); nil when 0
    /// (off). IPv6 clients are keyed by their `ipv6PrefixLength` prefix.
    public init?(
        perMinute: Double, trustedProxies: TrustedProxies,
        ipv6PrefixLength: Int = ConfigurationDefaults.rateLimitIPv6PrefixLength
    ) {
        guard perMinute > 0 else { return nil }
        self.init(
            limiter: RateLimiter(
                ratePerSecond: perMinute / 60, burst: max(1, Int(perMinute.rounded(.up))),
                ipv6PrefixLength: ipv6PrefixLength),
            trustedProxies: trustedProxies)
    }

    func take(for request: HTTPRequest) -> RateDecision {
        limiter.take(for: client(of: request))
    }

    /// Gives back what `take` took for the same request (`RateLimiter.giveBack`).
    func giveBack(for request: HTTPRequest) {
        limiter.giveBack(for: client(of: request))
    }

    private func client(of request: HTTPRequest) -> String {
        trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }
}
