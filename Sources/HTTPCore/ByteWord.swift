/// Tests on the eight bytes of a word at once (the classic SWAR tests), so a scan of text
/// for the few bytes that need attention (a control byte in a field value, a quote in a
/// JSON string, an escape in a form) moves a word at a time and looks at single bytes
/// only around a hit.
///
/// Each test is exact as a yes/no: a borrow out of one byte only reaches bytes above one
/// that already answers yes. Other modules call `skipWords`, one call per scan: the tests
/// are inlined here, where the loop is.
package enum ByteWord {
    /// The bytes a scan stops at.
    package struct Stops: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bytes below 0x20, and 0x7F.
        package static let controls = Stops(rawValue: 1 << 0)
        package static let quote = Stops(rawValue: 1 << 1)
        package static let backslash = Stops(rawValue: 1 << 2)
        package static let plus = Stops(rawValue: 1 << 3)
        package static let percent = Stops(rawValue: 1 << 4)
        /// Bytes 0x80 and above.
        package static let nonASCII = Stops(rawValue: 1 << 5)

        /// What a JSON string escapes (RFC 8259 §7, and DEL).
        package static let jsonEscapes = Stops(rawValue: 0b0_0111)
        /// What ends plain JSON string content: an escape, or a byte that is not ASCII.
        package static let jsonPlainEnds = Stops(rawValue: 0b10_0111)
        /// What a form component may need decoded: `+`, `%`, and bytes that are not ASCII.
        package static let formEscapes = Stops(rawValue: 0b11_1000)
    }

    /// The offset, from `offset`, of the first whole word of `bytes` that may hold one of
    /// `stops` (it holds one, or a byte that needs the same look: a tab among the
    /// controls), or of the last few bytes when no whole word is left. The named sets run
    /// a loop of their own tests alone.
    package static func skipWords(
        without stops: Stops, in bytes: UnsafeRawBufferPointer, from offset: Int
    ) -> Int {
        switch stops {
        case .jsonEscapes:
            return skip(bytes, from: offset) { hasControl($0) || hasQuoteOrBackslash($0) }
        case .jsonPlainEnds:
            return skip(bytes, from: offset) {
                hasHighBit($0) || hasControl($0) || hasQuoteOrBackslash($0)
            }
        case .formEscapes:
            return skip(bytes, from: offset) {
                hasHighBit($0) || hasByte(UInt8(ascii: "+"), in: $0)
                    || hasByte(UInt8(ascii: "%"), in: $0)
            }
        default:
            return skip(bytes, from: offset) { word in
                (stops.contains(.controls) && hasControl(word))
                    || (stops.contains(.quote) && hasByte(UInt8(ascii: "\""), in: word))
                    || (stops.contains(.backslash) && hasByte(UInt8(ascii: "\\"), in: word))
                    || (stops.contains(.plus) && hasByte(UInt8(ascii: "+"), in: word))
                    || (stops.contains(.percent) && hasByte(UInt8(ascii: "%"), in: word))
                    || (stops.contains(.nonASCII) && hasHighBit(word))
            }
        }
    }

    @inline(__always)
    private static func skip(
        _ bytes: UnsafeRawBufferPointer, from offset: Int, stopsAt test: (UInt64) -> Bool
    ) -> Int {
        var offset = offset
        while bytes.count - offset >= 8, !test(load(bytes, at: offset)) { offset += 8 }
        return offset
    }

    /// Whether one of `word`'s bytes is below 0x20 or is 0x7F.
    @inline(__always)
    static func hasControl(_ word: UInt64) -> Bool {
        hasByte(below: 0x20, in: word) || hasByte(0x7F, in: word)
    }

    @inline(__always)
    private static func hasQuoteOrBackslash(_ word: UInt64) -> Bool {
        hasByte(UInt8(ascii: "\""), in: word) || hasByte(UInt8(ascii: "\\"), in: word)
    }

    private static var ones: UInt64 { 0x0101_0101_0101_0101 }
    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether one of `word`'s bytes is below `limit` (at most 0x80).
    @inline(__always)
    static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether one of `word`'s bytes is `byte`.
    @inline(__always)
    static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        let zeroWhereEqual = word ^ (ones &* UInt64(byte))
        return (zeroWhereEqual &- ones) & ~zeroWhereEqual & highBits != 0
    }

    /// Whether one of `word`'s bytes has its high bit set (is not ASCII).
    @inline(__always)
    static func hasHighBit(_ word: UInt64) -> Bool {
        word & highBits != 0
    }

    /// The word at `offset` of `bytes` (any alignment; the byte order does not matter to
    /// the tests above).
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}
