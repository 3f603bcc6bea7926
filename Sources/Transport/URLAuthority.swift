/// The host and port of a URL's authority (RFC 3986 §3.2.2, §3.2.3), one rule for every
/// URL the service reads (the providers' `http(s)://`, the store's `redis(s)://`); the
/// caller splits off scheme, userinfo and path. An IPv6 literal is in brackets and
/// keeps its colons; a name is printable ASCII without `/`, brackets or `%` (no
/// percent-encoding or zone identifier reaches `getaddrinfo`), lower-cased; the port is
/// digits only, 1...65535, and absent (nil, the scheme's default) when empty.
package enum URLAuthority {
    /// Why an authority is refused: the caller's `invalidURL` reason. It names the
    /// part, never the text.
    package struct Invalid: Error, Sendable, Equatable {
        package let reason: String

        package init(reason: String) { self.reason = reason }
    }

    package static func split(_ authority: Substring) throws(Invalid) -> (
        host: String, port: UInt16?
    ) {
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Invalid(reason: "unterminated IPv6 literal")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Invalid(reason: "bad authority") }
                portPart = after.dropFirst()
            }
            guard hostPart.contains(":") else { throw Invalid(reason: "bad IPv6 literal") }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw Invalid(reason: "missing host") }
        guard
            hostPart.utf8.allSatisfy({
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "[")
                    && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: "%")
            })
        else { throw Invalid(reason: "bad host") }
        let host = hostPart.lowercased()
        // RFC 3986 §3.2.3: an empty port is the scheme's default.
        guard let portText = portPart, !portText.isEmpty else { return (host, nil) }
        // Digits only, by hand: Int("+80") would be accepted.
        var port = 0
        for byte in portText.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { throw Invalid(reason: "bad port") }
            port = port * 10 + Int(byte - 0x30)
            guard port <= 65535 else { throw Invalid(reason: "bad port") }
        }
        guard port >= 1 else { throw Invalid(reason: "bad port") }
        return (host, UInt16(port))
    }
}
