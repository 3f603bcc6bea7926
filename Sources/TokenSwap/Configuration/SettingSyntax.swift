/// Syntax checks for settings whose values are not simple numbers or names.
enum SettingSyntax {
    /// An absolute URI as OAuth allows for a redirect URI (RFC 6749 §3.1.2): a scheme
    /// (RFC 3986 §3.1), something after it, no fragment, no whitespace or controls. Custom
    /// schemes (`myapp://callback`) are what mobile apps register, so any scheme is fine.
    static func isRedirectURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon].utf8
        guard let first = scheme.first, isAlpha(first),
            scheme.allSatisfy({
                isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            })
        else { return false }
        let rest = text[text.index(after: colon)...]
        return !rest.isEmpty && !text.contains("#")
            && text.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }

    /// A scope token (RFC 6749 §3.3): `1*( %x21 / %x23-5B / %x5D-7E )`.
    static func isScopeToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0)
            }
    }

    /// `*`, or an origin as a browser sends it (RFC 6454 §6.2): scheme, host, optional
    /// port, and nothing else.
    static func isCORSOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return false
        }
        return !rest.isEmpty && !rest.contains { "/?#@".contains($0) || $0.isWhitespace }
    }

    /// An IPv4 or IPv6 address, optionally with a `/prefix` of the right length: exactly
    /// what `TrustedProxies` will use, so no accepted entry is silently dropped later.
    static func isAddressOrCIDR(_ text: String) -> Bool {
        AddressPrefix(text) != nil
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
