extension RateLimiter {
    /// The bucket `client` counts against: an IPv4 address (IPv4-mapped IPv6 included) is
    /// its own bucket; an IPv6 address is its network, the first `ipv6PrefixLength` bits,
    /// written `2001:db8:1:2::/64`. Anything else (`unknown`) is used as it is.
    static func bucketKey(for client: String, ipv6PrefixLength: Int) -> String {
        guard let address = AddressPrefix.parseAddress(client) else { return client }
        guard !address.isIPv4, ipv6PrefixLength < 128 else { return address.description }
        return address.masked(toPrefixLength: ipv6PrefixLength).description
            + "/\(ipv6PrefixLength)"
    }
}
