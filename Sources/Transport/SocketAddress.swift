#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 socket address: what `bind`, `connect` and `accept` exchange, plus a
/// printable host for logs and `HTTPRequest.remoteAddress`.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The raw `sockaddr_in` / `sockaddr_in6` bytes, kept as bytes so the value is
    /// Hashable and Sendable without wrapping C structs.
    let storage: [UInt8]
    /// `AF_INET` or `AF_INET6`.
    package let family: Int32
    /// The numeric host (`127.0.0.1`, `::1`), no brackets, no port.
    package let host: String
    package let port: UInt16

    /// A numeric address; no name resolution happens here (see `resolve(host:port:)`).
    package init(ipAddress: String, port: UInt16) throws(TransportError) {
        guard let address = IPAddress(ipAddress) else { throw .invalidAddress(ipAddress) }
        if address.isIPv4 {
            var v4 = sockaddr_in()
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: address.bytes) }
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self.init(copying: v4)
        } else {
            var v6 = sockaddr_in6()
            withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: address.bytes) }
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self.init(copying: v6)
        }
    }

    /// Copies a `sockaddr_in` or `sockaddr_in6` filled in by the kernel; nil for any
    /// other family (e.g. a Unix socket, which this layer never creates).
    init?(raw: UnsafeRawPointer, length: socklen_t) {
        let family = Int32(raw.load(as: sockaddr.self).sa_family)
        switch family {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            self.init(copying: raw.load(as: sockaddr_in.self))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            self.init(copying: raw.load(as: sockaddr_in6.self))
        default:
            return nil
        }
    }

    private init(copying v4: sockaddr_in) {
        var copy = v4
        storage = withUnsafeBytes(of: &copy) { Array($0) }
        family = AF_INET
        port = UInt16(bigEndian: v4.sin_port)
        host = Self.numericHost(address: v4.sin_addr)
    }

    private init(copying v6: sockaddr_in6) {
        var copy = v6
        storage = withUnsafeBytes(of: &copy) { Array($0) }
        family = AF_INET6
        port = UInt16(bigEndian: v6.sin6_port)
        host = Self.numericHost(address: v6.sin6_addr)
    }

    private static func numericHost<Address>(address: Address) -> String {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        return IPAddress(bytes: bytes)?.description ?? "?"
    }

    /// `host:port`, with brackets around IPv6 hosts (RFC 3986 §3.2.2).
    public var description: String {
        family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        storage.withUnsafeBytes { raw in
            // storage always holds a whole sockaddr_in/_in6, so the base address exists.
            let pointer = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: sockaddr.self)
            return body(pointer, socklen_t(raw.count))
        }
    }
}
