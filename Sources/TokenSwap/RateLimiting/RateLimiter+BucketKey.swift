extension RateLimiter {
    /// The bucket `client` counts against: an IPv4 address (IPv4-mapped IPv6 included) is
    /// its own bucket; an IPv6 address is its network, the first `ipv6PrefixLength` bits,
    /// written `2001:db8:1:2::/64`. Anything else (`unknown`) is used as it is.
    static func bucketKey(for client: String, ipv6PrefixLength: Int) -> String {
        guard var bytes = AddressPrefix.parseAddress(client) else { return client }
        guard bytes.count == 16 else { return AddressPrefix.text(of: bytes) }
        guard ipv6PrefixLength < 128 else { return AddressPrefix.text(of: bytes) }
        var remaining = ipv6PrefixLength
        for index in bytes.indices {
            let kept = min(8, max(0, remaining))
            bytes[index] &= UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
            remaining -= 8
        }
        return AddressPrefix.text(of: bytes) + "/\(ipv6PrefixLength)"
    }
}
