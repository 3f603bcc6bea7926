import CPosix

#if canImport(Glibc)
    import Glibc
#endif

extension SocketAddress {
    /// Resolves a host name to TCP addresses with `getaddrinfo`, in the resolver's order.
    ///
    /// This BLOCKS (getaddrinfo has no non-blocking form): never call it on an event
    /// loop; run it on a detached task or a separate queue and cache the answer.
    package static func resolve(host: String, port: UInt16) throws(TransportError)
        -> [SocketAddress]
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else { throw .unresolvable(host: host, code: code) }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr,
                let address = SocketAddress(raw: raw, length: entry.pointee.ai_addrlen),
                !found.contains(address)
            {
                found.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !found.isEmpty else { throw .unresolvable(host: host, code: EAI_NONAME) }
        return found
    }
}
