extension ServiceConfiguration {
    /// The one way a per-client limit is made (CONTRACT §15): clients are who the trusted
    /// proxies say, IPv6 clients are keyed by `TOKENSWAP_RATE_LIMIT_IPV6_PREFIX` bits and
    /// also counted per /48. `/device/code`, `/introspect` and any limit added later get
    /// the same keys as `TOKENSWAP_RATE_LIMIT` by being made here. Nil when 0 (off).
    package func clientRateLimit(perMinute: Double) -> ClientRateLimit? {
        ClientRateLimit(
            perMinute: perMinute, trustedProxies: TrustedProxies(trustedProxies),
            ipv6PrefixLength: rateLimitIPv6PrefixLength)
    }

    /// `TOKENSWAP_RATE_LIMIT` per second with its burst, keyed as above; nil when off.
    package var requestRateLimit: ClientRateLimit? {
        guard rateLimitPerSecond > 0 else { return nil }
        return ClientRateLimit(
            limiter: RateLimiter(
                ratePerSecond: rateLimitPerSecond, burst: rateLimitBurst,
                ipv6PrefixLength: rateLimitIPv6PrefixLength),
            trustedProxies: TrustedProxies(trustedProxies))
    }
}
