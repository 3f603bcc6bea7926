import Transport

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
        let host: String
        let port: UInt16?
        do throws(URLAuthority.Invalid) {
            (host, port) = try URLAuthority.split(authority)
        } catch {
            throw .invalidURL(reason: error.reason)
        }
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
}
