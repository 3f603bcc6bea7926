/// Where a connection goes: scheme, host and port (RFC 6454 §4). Pools are per origin.
package struct Origin: Sendable, Hashable, CustomStringConvertible {
    package enum Scheme: String, Sendable, Hashable {
        case http
        case https

        var defaultPort: UInt16 { self == .https ? 443 : 80 }
    }

    package let scheme: Scheme
    /// A DNS name or an IP literal, without brackets for IPv6.
    package let host: String
    package let port: UInt16
    /// The `Host` field value (RFC 9112 §3.2): the port only when not the default,
    /// IPv6 literals in brackets (RFC 3986 §3.2.2). Made once: every upstream request
    /// writes it.
    package let hostField: String

    package init(scheme: Scheme, host: String, port: UInt16? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
        let name = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        self.hostField = self.port == scheme.defaultPort ? name : "\(name):\(self.port)"
    }

    /// Equal when scheme, host and port are (the field follows from them).
    package static func == (lhs: Origin, rhs: Origin) -> Bool {
        lhs.scheme == rhs.scheme && lhs.port == rhs.port && lhs.host == rhs.host
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }

    package var description: String { "\(scheme.rawValue)://\(hostField)" }
}
