/// Where a connection goes: scheme, host and port (RFC 6454 §4). Pools are per origin.
package struct Origin: Sendable, Hashable, CustomStringConvertible {
    package enum Scheme: String, Sendable, Hashable {
        case http
        case https

        var defaultPort: UInt16 { self == .https ? 443 : 80 }
    }

    package var scheme: Scheme
    /// A DNS name or an IP literal, without brackets for IPv6.
    package var host: String
    package var port: UInt16

    package init(scheme: Scheme, host: String, port: UInt16? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
    }

    /// The `Host` field value (RFC 9112 §3.2): the port only when not the default,
    /// IPv6 literals in brackets (RFC 3986 §3.2.2).
    package var hostField: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == scheme.defaultPort ? name : "\(name):\(port)"
    }

    package var description: String { "\(scheme.rawValue)://\(hostField)" }
}
