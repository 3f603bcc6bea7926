import Synchronization

/// Connections open per client, so one client cannot hold all of a server's connections
/// (and with them its memory). Bounded: a client is in the table only while it has a
/// connection open.
///
/// A client is its address; an IPv6 client is its `/ipv6PrefixLength` network (one
/// subnet hands its hosts as many addresses as they like), and the enclosing /48 (a
/// site, RFC 6177) may hold `siteMultiplier` times the per-client cap, so one allocation
/// cannot mint 65,536 fresh clients (CONTRACT §15). An IPv4-mapped IPv6 address is its
/// IPv4 address.
package final class ClientConnectionCounts: Sendable {
    package let maxPerClient: Int
    package let ipv6PrefixLength: Int
    /// What the enclosing /48 may hold: `siteMultiplier` times `maxPerClient`.
    package let maxPerSite: Int
    package static let siteMultiplier = IPv6Site.allowanceFactor
    static let sitePrefixLength = IPv6Site.prefixLength
    private let counts = Mutex<[ClientKey: Int]>([:])

    /// `ipv6PrefixLength` is clamped to 1...128.
    package init(maxPerClient: Int, ipv6PrefixLength: Int = 64) {
        self.maxPerClient = maxPerClient
        self.ipv6PrefixLength = min(128, max(1, ipv6PrefixLength))
        let (site, overflow) = maxPerClient.multipliedReportingOverflow(by: Self.siteMultiplier)
        self.maxPerSite = overflow ? .max : site
    }

    /// One client, or one site (a /48 holding several), as counted.
    package struct ClientKey: Hashable, Sendable {
        /// The network's bytes, or a text that is no IP address as it is.
        let bytes: [UInt8]
        /// The prefix length; -1 for a text.
        let prefixLength: Int
    }

    /// The client `host` counts as (the same for every address of one IPv6 prefix).
    package func clientKey(for host: String) -> ClientKey {
        guard let address = IPAddress(host)?.unmapped else {
            return ClientKey(bytes: Array(host.utf8), prefixLength: -1)
        }
        guard !address.isIPv4 else { return ClientKey(bytes: address.bytes, prefixLength: 32) }
        return ClientKey(
            bytes: address.masked(toPrefixLength: ipv6PrefixLength).bytes,
            prefixLength: ipv6PrefixLength)
    }

    /// The /48 around an IPv6 client whose prefix is longer; nil otherwise.
    func siteKey(for host: String) -> ClientKey? {
        guard ipv6PrefixLength > Self.sitePrefixLength, let address = IPAddress(host)?.unmapped,
            !address.isIPv4
        else { return nil }
        return ClientKey(
            bytes: address.masked(toPrefixLength: Self.sitePrefixLength).bytes,
            prefixLength: Self.sitePrefixLength)
    }

    /// Counts one more connection of `host`; false (not counted) when its client already
    /// holds `maxPerClient`, or its /48 `maxPerSite`. With `force`, counted regardless
    /// (a connection of the client is being closed to make room for it).
    func admit(_ host: String, force: Bool = false) -> Bool {
        let client = clientKey(for: host)
        let site = siteKey(for: host)
        return counts.withLock { counts in
            let open = counts[client, default: 0]
            let siteOpen = site.map { counts[$0, default: 0] } ?? 0
            guard force || (open < maxPerClient && siteOpen < maxPerSite) else { return false }
            counts[client] = open + 1
            if let site { counts[site] = siteOpen + 1 }
            return true
        }
    }

    func release(_ host: String) {
        let client = clientKey(for: host)
        let site = siteKey(for: host)
        counts.withLock { counts in
            for key in [client, site].compactMap({ $0 }) {
                guard let open = counts[key] else { continue }
                counts[key] = open > 1 ? open - 1 : nil
            }
        }
    }

    /// Connections `host`'s client holds now (for tests and metrics).
    package func openConnections(of host: String) -> Int {
        let client = clientKey(for: host)
        return counts.withLock { $0[client, default: 0] }
    }
}
