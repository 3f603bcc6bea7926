#if canImport(Glibc)
    import Glibc
#endif

/// A numeric IPv4 or IPv6 address as its bytes: the one place IP text is parsed
/// (inet_pton) and printed (inet_ntop), for socket addresses and for the product's
/// client addresses and CIDR blocks alike.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 (IPv4) or 16 (IPv6) bytes, in network order.
    package let bytes: [UInt8]

    /// nil unless `bytes` holds 4 or 16 bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Dotted IPv4 or RFC 4291 §2.2 IPv6 text (no brackets, no zone, no port); nil for
    /// anything else, host names included.
    package init?(_ text: some StringProtocol) {
        // Longer than any address text (INET6_ADDRSTRLEN is 46): refused before copying.
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        self.init(String(text))
    }

    /// `init(_:)` of a `String`, the form a peer's address and a configuration entry come
    /// in: read by `inet_pton` from the string's own C form into memory on the stack, where
    /// the generic form went through the protocol's witnesses and a C copy of the text per
    /// family (a proof-id record parses its client's address on every DPoP proof, CONTRACT
    /// §13).
    package init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var buffer: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &buffer) { buffer in
            text.withCString { text -> Int? in
                if inet_pton(AF_INET, text, buffer.baseAddress) == 1 { return 4 }
                if inet_pton(AF_INET6, text, buffer.baseAddress) == 1 { return 16 }
                return nil
            }
        }
        guard let count else { return nil }
        bytes = withUnsafeBytes(of: &buffer) { Array($0.prefix(count)) }
    }

    package var isIPv4: Bool { bytes.count == 4 }

    /// `AF_INET` or `AF_INET6`.
    package var family: Int32 { isIPv4 ? AF_INET : AF_INET6 }

    /// An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`, RFC 4291 §2.5.5.2: what a
    /// dual-stack socket reports for an IPv4 peer) as the IPv4 address; others as they are.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<12].elementsEqual(Self.mappedPrefix) else {
            return self
        }
        return IPAddress(checked: Array(bytes[12..<16]))
    }

    /// The first `prefixLength` bits kept, the rest zero (a CIDR block's network).
    package func masked(toPrefixLength prefixLength: Int) -> IPAddress {
        var masked = bytes
        var remaining = prefixLength
        for index in masked.indices {
            let kept = min(8, max(0, remaining))
            masked[index] &= UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
            remaining -= 8
        }
        return IPAddress(checked: masked)
    }

    /// Whether `other` is of the same family and agrees with this address in the first
    /// `prefixLength` bits.
    package func sharesPrefix(with other: IPAddress, length prefixLength: Int) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        // Byte by byte, no copies: this runs for every trusted-proxy entry per request.
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, other.bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The canonical text (inet_ntop: lowercase, longest zero run as `::`), so `::1` and
    /// `0::1` read the same.
    package var description: String {
        var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &output, socklen_t(output.count))
        }
        // inet_ntop fails only for a short buffer or unknown family; neither can happen.
        guard written != nil else { return "?" }
        return String(
            decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
}
