import HTTPCore
import Transport

/// A client as every per-client limit and cap counts it (CONTRACT §15): an IPv4 address
/// (an IPv4-mapped IPv6 address is its IPv4 address), or an IPv6 address's first
/// `TOKENSWAP_RATE_LIMIT_IPV6_PREFIX` bits (one host holds a whole /64 and picks any
/// address in it), as `RateLimiter.bucketKey` names it.
///
/// Plain data (two words and a length), not text: the proof-id table (CONTRACT §13) keys
/// a client with every proof it records, so making one allocates nothing beyond reading
/// the address, and a table keyed by it holds no string per client.
package struct ClientPrefix: Hashable, Sendable {
    /// The address's first and last eight bytes, big-endian, past the prefix zero; an IPv4
    /// address in the low 32 bits of `low`.
    private let high: UInt64
    private let low: UInt64
    /// The prefix length in bits: 32 for IPv4 (with `isIPv4`), 1 to 128 for IPv6, 0 for a
    /// request with no address to count (`unknown`).
    private let length: UInt8
    private let isIPv4: Bool

    private init(high: UInt64, low: UInt64, length: UInt8, isIPv4: Bool) {
        self.high = high
        self.low = low
        self.length = length
        self.isIPv4 = isIPv4
    }

    /// Every request without an address (no peer, or one that is no IP address: a Unix
    /// socket, a test): one client among them.
    package static let unknown = ClientPrefix(high: 0, low: 0, length: 0, isIPv4: false)

    /// `address`'s client: itself for IPv4, its first `ipv6PrefixLength` bits (clamped to
    /// 1...128) for IPv6.
    package init(_ address: IPAddress, ipv6PrefixLength: Int) {
        let address = address.unmapped
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard !address.isIPv4 else {
            self.init(high: 0, low: word(address.bytes[...]), length: 32, isIPv4: true)
            return
        }
        let bits = min(128, max(1, ipv6PrefixLength))
        // Smart shifts: shifting a word by 64 or more bits leaves none of it.
        let highMask = UInt64.max << (64 - min(64, bits))
        let lowMask = bits <= 64 ? 0 : UInt64.max << (128 - bits)
        self.init(
            high: word(address.bytes[0..<8]) & highMask,
            low: word(address.bytes[8..<16]) & lowMask, length: UInt8(bits), isIPv4: false)
    }

    /// The client `request` comes from: the TCP peer, or the client a trusted proxy names
    /// in `X-Forwarded-For` (`TrustedProxies.clientAddress`); `unknown` when there is no
    /// address.
    package init(
        of request: HTTPRequest, trustedProxies: TrustedProxies, ipv6PrefixLength: Int
    ) {
        guard
            let address = trustedProxies.clientIPAddress(
                peer: request.remoteAddress,
                forwardedFor: { request.headers.values("X-Forwarded-For") })
        else {
            self = .unknown
            return
        }
        self.init(address, ipv6PrefixLength: ipv6PrefixLength)
    }
}
