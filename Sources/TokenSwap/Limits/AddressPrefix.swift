import Transport

/// An IP address or CIDR block (`10.0.0.0/8`, `2001:db8::/32`, `127.0.0.1`): the one parser
/// of `TOKENSWAP_TRUSTED_PROXIES` entries, for the configuration's check and the proxy
/// match alike. Addresses are Transport's `IPAddress`; IPv4-mapped IPv6 addresses
/// (`::ffff:10.1.2.3`, what a dual-stack socket reports for an IPv4 peer) are treated as
/// the IPv4 address.
struct AddressPrefix: Sendable, Equatable {
    /// The block's address, IPv4-mapped IPv6 reduced to IPv4.
    let network: IPAddress
    let prefixLength: Int

    /// nil for anything that is not an address with an optional in-range `/prefix`.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let written = IPAddress(parts[0]) else { return nil }
        let address = written.unmapped
        var length = address.bytes.count * 8
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count),
                digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let bits = Int(digits), bits <= written.bytes.count * 8
            else { return nil }
            // A mapped IPv6 prefix covers the IPv4 bits after the first 96.
            if address.isIPv4, !written.isIPv4 {
                guard bits >= 96 else { return nil }
                length = bits - 96
            } else {
                length = bits
            }
        }
        network = address
        prefixLength = length
    }

    /// True when `address` (already parsed) lies inside this prefix.
    func contains(_ address: IPAddress) -> Bool {
        network.sharesPrefix(with: address, length: prefixLength)
    }

    /// A client address as a proxy or the server writes it: IPv4 or IPv6 (`[v6]` brackets
    /// allowed), IPv4-mapped IPv6 reduced to IPv4; nil if it is not one.
    static func parseAddress(_ text: some StringProtocol) -> IPAddress? {
        // The brackets are ASCII, so their bytes are compared and dropped: no Character
        // reads (every proof-id record parses its client's address, CONTRACT §13). As a
        // String here, where this is specialised: `IPAddress`'s own parse of one.
        var text = String(text)
        let utf8 = text.utf8
        if utf8.count >= 2, utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]") {
            text = String(decoding: utf8.dropFirst().dropLast(), as: UTF8.self)
        }
        return IPAddress(text)?.unmapped
    }
}
