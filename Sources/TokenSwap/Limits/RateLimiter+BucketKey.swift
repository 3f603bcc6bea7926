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

    /// The network an IPv6 `client` also counts against (`2001:db8:1::/48`); nil for IPv4
    /// and anything that is not an address.
    static func networkKey(for client: String, prefixLength: Int) -> String? {
        guard let address = AddressPrefix.parseAddress(client), !address.isIPv4 else {
            return nil
        }
        return address.masked(toPrefixLength: prefixLength).description + "/\(prefixLength)"
    }
}
