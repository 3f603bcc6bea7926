import HTTPCore

/// A `RateLimiter` keyed by the client address a request comes from (the TCP peer, or
/// `X-Forwarded-For` from a trusted proxy), for limits one endpoint adds on top of
/// `TOKENSWAP_RATE_LIMIT`: `/device/code`'s `TOKENSWAP_DEVICE_RATE_LIMIT` (RFC 8628 §5.4),
/// `/introspect`'s `TOKENSWAP_INTROSPECTION_RATE_LIMIT` (RFC 7662 §4).
public struct ClientRateLimit: Sendable {
    package let limiter: RateLimiter
    package let trustedProxies: TrustedProxies

    package init(limiter: RateLimiter, trustedProxies: TrustedProxies) {
        self.limiter = limiter
        self.trustedProxies = trustedProxies
    }

    /// `perMinute` requests a minute, all of them allowed at once (the burst), IPv6
    /// clients keyed by `ipv6PrefixLength` bits (and their /48, `RateLimiter`); nil when 0
    /// (off). Made through `ServiceConfiguration.clientRateLimit(perMinute:)`, so every
    /// per-client limit keys its clients the same way.
    package init?(perMinute: Double, trustedProxies: TrustedProxies, ipv6PrefixLength: Int) {
        guard perMinute > 0 else { return nil }  // NaN too
        // Saturating: a huge setting is "no practical limit", never a trap in Int(_:).
        let burst = perMinute < 1e15 ? max(1, Int(perMinute.rounded(.up))) : Int.max
        self.init(
            limiter: RateLimiter(
                ratePerSecond: perMinute / 60, burst: burst, ipv6PrefixLength: ipv6PrefixLength),
            trustedProxies: trustedProxies)
    }

    /// The address `request` counts against (the TCP peer, or the client a trusted proxy
    /// names).
    package func client(of request: HTTPRequest) -> String {
        trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }

    package func take(for request: HTTPRequest) -> RateDecision {
        limiter.take(for: client(of: request))
    }

    /// Gives back what `take(for:)` just took for `request`'s client.
    package func giveBack(for request: HTTPRequest) {
        limiter.giveBack(for: client(of: request))
    }
}
