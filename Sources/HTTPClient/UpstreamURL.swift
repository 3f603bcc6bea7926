/// An absolute `http`/`https` URL split into origin and origin-form target
/// (RFC 3986 §3). Userinfo is refused: credentials never travel in a URL here.
public struct UpstreamURL: Sendable, Hashable {
    package var origin: Origin
    package var target: String

    package init(_ text: String) throws(HTTPClientError) {
        let scheme: Origin.Scheme
        var rest: Substring
        if let r = Self.dropPrefixIgnoringCase("https://", text) {
            scheme = .https
            rest = r
        } else if let r = Self.dropPrefixIgnoringCase("http://", text) {
            scheme = .http
            rest = r
        } else {
            throw .invalidURL(reason: "scheme must be http or https")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }  // never sent (§3.5)
        guard !authority.contains("@") else { throw .invalidURL(reason: "userinfo is not allowed") }
        let (host, port) = try Self.splitAuthority(authority)
        guard !host.isEmpty else { throw .invalidURL(reason: "missing host") }
        guard rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidURL(reason: "path must be printable ASCII without spaces")
        }
        origin = Origin(scheme: scheme, host: host, port: port)
        target = rest.isEmpty ? "/" : (rest.hasPrefix("?") ? "/" + rest : String(rest))
    }

    private static func dropPrefixIgnoringCase(_ prefix: String, _ text: String) -> Substring? {
        guard text.utf8.count >= prefix.utf8.count,
            text.prefix(prefix.count).lowercased() == prefix
        else { return nil }
        return text.dropFirst(prefix.count)
    }

    private static func splitAuthority(_ authority: Substring) throws(HTTPClientError) -> (
        String, UInt16?
    ) {
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(reason: "unterminated IPv6 literal")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(reason: "bad authority") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") })
        else { throw .invalidURL(reason: "bad host") }
        guard let portText = portPart else { return (hostPart.lowercased(), nil) }
        if portText.isEmpty { return (hostPart.lowercased(), nil) }  // RFC 3986 §3.2.3
        // Digits only, by hand: Int("+80") would be accepted.
        var port = 0
        for byte in portText.utf8 {
            guard byte >= 0x30 && byte <= 0x39, port <= 65535 else {
                throw .invalidURL(reason: "bad port")
            }
            port = port * 10 + Int(byte - 0x30)
        }
        guard port >= 1 && port <= 65535 else { throw .invalidURL(reason: "bad port") }
        return (hostPart.lowercased(), UInt16(port))
    }
}
