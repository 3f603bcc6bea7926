#if canImport(Glibc)
    import Glibc
#endif

/// An IP address or CIDR block (`10.0.0.0/8`, `2001:db8::/32`, `127.0.0.1`), parsed with
/// inet_pton and matched bit by bit. IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`, what a
/// dual-stack socket reports for an IPv4 peer) are treated as the IPv4 address.
struct AddressPrefix: Sendable, Equatable {
    /// 4 or 16 bytes, in network order.
    let bytes: [UInt8]
    let prefixLength: Int

    /// nil for anything that is not an address with an optional in-range `/prefix`.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = Self.parseAddress(parts[0]) else { return nil }
        let written6 = parts[0].contains(":")
        var length = address.count * 8
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count),
                digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let bits = Int(digits), bits <= (written6 ? 128 : 32)
            else { return nil }
            // A mapped IPv6 prefix covers the IPv4 bits after the first 96.
            if address.count == 4, written6 {
                guard bits >= 96 else { return nil }
                length = bits - 96
            } else {
                length = bits
            }
        }
        bytes = address
        prefixLength = length
    }

    /// True when `address` (already parsed) lies inside this prefix.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, address) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address (`[v6]` brackets allowed), IPv4-mapped IPv6
    /// reduced to IPv4; nil if it is not one.
    static func parseAddress(_ text: some StringProtocol) -> [UInt8]? {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &buffer) == 1 { return Array(buffer[0..<4]) }
        guard inet_pton(AF_INET6, text, &buffer) == 1 else { return nil }
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        if Array(buffer[0..<12]) == mapped { return Array(buffer[12..<16]) }
        return buffer
    }

    /// The canonical text of parsed address bytes (inet_ntop), so `::1` and `0::1` are one
    /// client.
    static func text(of address: [UInt8]) -> String {
        var output = [CChar](repeating: 0, count: 64)
        let family = address.count == 4 ? AF_INET : AF_INET6
        let written = address.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &output, socklen_t(output.count))
        }
        guard written != nil else { return "unknown" }
        return String(
            decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
