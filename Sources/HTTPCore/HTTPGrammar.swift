/// Byte classes of the HTTP grammar (RFC 9110 §5.6, RFC 9112 §2, RFC 5234 core rules).
/// Tables, not character sets: the parsers look at every byte of every head. Public only
/// where a layer above checks the same grammar (a request id is a token), so no copy of
/// a table lives outside this file.
public enum HTTPGrammar {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let comma: UInt8 = 0x2C
    static let semicolon: UInt8 = 0x3B
    static let slash: UInt8 = 0x2F
    static let hash: UInt8 = 0x23
    static let percent: UInt8 = 0x25

    /// What an http(s) authority may hold (RFC 3986 §3.2): host = reg-name / IPv4 / IP
    /// literal in brackets, `:` port; so unreserved, pct-encoded (`%`, checked by the
    /// caller), sub-delims, `:`, `[`, `]`. Not `@` (no userinfo in http(s) URIs, RFC 9110
    /// §4.2.4), not `/`, `?`, `#` (they end or follow the authority).
    ///
    /// A `switch`, not a table in a global: the compiler makes it a bit test, and a global
    /// would cost a lazy-initialisation check on every byte.
    @inline(__always)
    static func isAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
            true
        default: false
        }
    }

    /// tchar (RFC 9110 §5.6.2).
    /// A `switch`, as `isAuthority`.
    @inline(__always)
    public static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// field-vchar / SP / HTAB (RFC 9110 §5.5): VCHAR, obs-text, and whitespace. Excludes
    /// NUL, CR, LF and the other controls, which RFC 9110 §5.5 says to reject.
    @inline(__always)
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    /// VCHAR (RFC 5234): what a request-target may contain (RFC 9112 §3.2, RFC 3986).
    @inline(__always)
    static func isVisible(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    /// OWS (RFC 9110 §5.6.3).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always)
    static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// HEXDIG value, either case (RFC 9112 §7.1 chunk-size).
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// ASCII case-insensitive comparison of bytes with a lowercase literal.
    static func equalsLowercase(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString
    ) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { literal in
            var i = 0
            for index in range {
                if lowercased(bytes[index]) != literal[i] { return false }
                i += 1
            }
            return true
        }
    }

    /// The range with OWS removed from both ends.
    static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>)
        -> Range<Int>
    {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }
}
