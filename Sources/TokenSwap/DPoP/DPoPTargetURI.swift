import Sealing

/// The `htu` comparison of RFC 9449 §4.3 (CONTRACT §13): an absolute `http` or `https`
/// URI without query and fragment, normalised per RFC 3986 §6.2.2 (case of scheme and
/// host, upper-case percent-encodings, unreserved characters decoded, dot segments
/// removed) and §6.2.3 (default port dropped, empty path as `/`), so two spellings of
/// the same URI compare equal and nothing else does.
package struct DPoPTargetURI: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    var scheme: String { parts.scheme }
    /// The host in lower case, with the port when it is not the scheme's default.
    var authority: String { parts.authority }
    /// The normalised path, never empty.
    var path: String { parts.path }
    /// `description`'s UTF-8, made once with the URI (a request's is kept,
    /// `DPoPRequestOrigin`), so that a proof's `htu` is compared with one `memcmp`.
    private var spelling: [UInt8] { parts.spelling }
    /// The parts in one object: a request's URI is handed from the kept one through the
    /// proof's check, one reference to count instead of four.
    private let parts: Parts

    private final class Parts: Sendable {
        let scheme: String
        let authority: String
        let path: String
        let spelling: [UInt8]

        init(scheme: String, authority: String, path: String) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            spelling = Array("\(scheme)://\(authority)\(path)".utf8)
        }
    }

    /// Equal parts; the spelling follows from them.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.parts === rhs.parts
            || (lhs.scheme == rhs.scheme && lhs.authority == rhs.authority
                && lhs.path == rhs.path)
    }

    package var description: String { String(decoding: spelling, as: UTF8.self) }

    /// Whether `text` is exactly `description`, compared without building it: a client
    /// that sends the normal form (most do) matches as text.
    func isSpelled(_ text: String) -> Bool {
        text.withUTF8Bytes { isSpelled($0) }
    }

    /// `isSpelled` of a text given as its UTF-8.
    func isSpelled(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        spelling.withUnsafeBytes { UnsafeRawBufferPointer(text).sameBytes(as: $0) }
    }

    /// Parses a proof's `htu`: nil unless it is an absolute http(s) URI with a host and
    /// no user information. A query or fragment is dropped (RFC 9449 §4.3 point 9).
    package init?(_ text: String) {
        // Read as bytes: every delimiter is ASCII, and a non-ASCII byte fails the
        // authority's and the path's checks below.
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
            utf8[utf8.index(after: colon)...].starts(with: "//".utf8)
        else { return nil }
        let rest = utf8[utf8.index(colon, offsetBy: 3)...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        let hierarchical = rest[..<(end ?? rest.endIndex)]
        let pathStart =
            hierarchical.firstIndex(of: UInt8(ascii: "/")) ?? hierarchical.endIndex
        self.init(
            scheme: text[..<colon], authority: text[hierarchical.startIndex..<pathStart],
            path: text[pathStart..<hierarchical.endIndex])
    }

    /// The URI a request was sent to: `scheme` and `authority` as the service knows them
    /// (the public URL, a trusted proxy's forwarded fields, or the connection and
    /// `Host`), and the request target's path as sent, an alias as itself.
    init?(scheme: some StringProtocol, authority: some StringProtocol, path: some StringProtocol) {
        guard let base = Base(scheme: scheme, authority: authority) else { return nil }
        self.init(base: base, path: path)
    }

    /// The URI of `path` at a normalised scheme and authority.
    init?(base: Base, path: some StringProtocol) {
        guard let path = Self.normalisedPath(path) else { return nil }
        parts = Parts(scheme: base.scheme, authority: base.authority, path: path)
    }

    /// A scheme and authority normalised, the part of a request's URI that is the same for
    /// every request to one host (so it can be normalised once, `DPoPRequestOrigin`).
    struct Base: Sendable, Equatable {
        let scheme: String
        let authority: String

        /// Nil unless the scheme is `http` or `https` and the authority a host (and port)
        /// without user information.
        init?(scheme: some StringProtocol, authority: some StringProtocol) {
            let scheme = scheme.lowercased()
            guard scheme == "http" || scheme == "https",
                let authority = DPoPTargetURI.normalisedAuthority(authority, scheme: scheme)
            else { return nil }
            self.scheme = scheme
            self.authority = authority
        }
    }

    /// The request target's path: up to the query.
    static func path(ofRequestTarget target: some StringProtocol) -> Substring {
        let text = Substring(target)
        func isEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") }
        // Over the text's own storage where it has one (a received target always does).
        let end: Substring.Index?
        if let offset = text.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(where: isEnd) })
        {
            end = offset.map { text.utf8.index(text.startIndex, offsetBy: $0) }
        } else {
            end = text.utf8.firstIndex(where: isEnd)
        }
        return text[..<(end ?? text.endIndex)]
    }

    // MARK: RFC 3986 §6.2.2–6.2.3

    private static func normalisedAuthority(_ authority: some StringProtocol, scheme: String)
        -> String?
    {
        let bytes = Array(authority.utf8)
        guard !bytes.isEmpty, !bytes.contains(UInt8(ascii: "@")),
            bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        var host = bytes[...]
        var port: ArraySlice<UInt8>?
        let isLiteral = host.first == UInt8(ascii: "[")
        if isLiteral {
            // An IP literal (RFC 3986 §3.2.2): the port follows the closing bracket.
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let after = host[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                port = after.dropFirst()
            }
            host = host[...close]
        } else if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            port = host[(colon + 1)...]
            host = host[..<colon]
        }
        // RFC 3986 §3.2.2: an IP literal holds hex digits, `:` and `.`; any other host
        // (a name, an IPv4 address) no `:` nor a delimiter, so the normal form parses
        // back to itself.
        let allowed: (UInt8) -> Bool =
            isLiteral
            ? { Self.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
            : { Self.isUnreserved($0) || Self.isSubDelimiter($0) || $0 == UInt8(ascii: "%") }
        let inner = isLiteral ? host.dropFirst().dropLast() : host
        guard !inner.isEmpty, inner.allSatisfy(allowed) else { return nil }
        let isLowerCase = !host.contains { (0x41...0x5A).contains($0) }
        if isLowerCase, port.map({ $0.isEmpty || $0.first == UInt8(ascii: "0") }) != true {
            // Already the normal form but for a default port (checked below): the text
            // as it came, with no bytes rebuilt.
            if let port {
                guard let number = Self.portNumber(port) else { return nil }
                if number != (scheme == "https" ? 443 : 80) { return String(authority) }
            } else {
                return String(authority)
            }
        }
        // ASCII only (checked above), so lower case is a byte's.
        var text = String(
            decoding: host.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        if let port, !port.isEmpty {
            guard let number = Self.portNumber(port) else { return nil }
            if number != (scheme == "https" ? 443 : 80) { text += ":\(number)" }
        }
        return text
    }

    /// A port's digits as a number up to 65535; nil for anything else.
    private static func portNumber(_ port: ArraySlice<UInt8>) -> Int? {
        guard port.count <= 5, port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = port.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return number <= 65535 ? number : nil
    }

    /// Percent-encodings upper-cased and those of unreserved characters decoded, then dot
    /// segments removed; an empty path is `/`. Nil for a malformed percent-encoding or a
    /// byte that a path cannot hold.
    private static func normalisedPath(_ path: some StringProtocol) -> String? {
        // Without a percent-encoding or a dot nothing changes: the text as it came.
        func isKept(_ byte: UInt8) -> Bool {
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: ".")
        }
        // Over the text's own storage where it has one (a request's path always does).
        let unchanged =
            path.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isKept) }
            ?? path.utf8.allSatisfy(isKept)
        if !path.isEmpty, unchanged {
            return String(path)
        }
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F else { return nil }
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            else { return nil }
            let decoded = high << 4 | low
            if isUnreserved(decoded) {
                out.append(decoded)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(high))
                out.append(hexDigit(low))
            }
            index += 3
        }
        let removed = removingDotSegments(String(decoding: out, as: UTF8.self))
        return removed.isEmpty ? "/" : removed
    }

    /// RFC 3986 §5.2.4, on whole segments.
    static func removingDotSegments(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: ".")) else { return path }
        let absolute = path.hasPrefix("/")
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if absolute { segments.removeFirst() }
        var output: [String] = []
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
