/// Tests on the eight bytes of a word at once (the classic SWAR tests): a scan of text
/// for the few bytes that need attention (a control byte in a field value, a quote in a
/// JSON string) moves a word at a time and looks at single bytes only around a hit.
///
/// Each test is exact as a yes/no: a borrow out of one byte only reaches bytes above one
/// that already answers yes.
package enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of `word`'s bytes is below `limit` (at most 0x80).
    @inline(__always)
    package static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether one of `word`'s bytes is `byte`.
    @inline(__always)
    package static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        let zeroWhereEqual = word ^ (ones &* UInt64(byte))
        return (zeroWhereEqual &- ones) & ~zeroWhereEqual & highBits != 0
    }

    /// Whether one of `word`'s bytes has its high bit set (is not ASCII).
    @inline(__always)
    package static func hasHighBit(_ word: UInt64) -> Bool {
        word & highBits != 0
    }

    /// The word at `offset` of `bytes` (any alignment; the byte order does not matter to
    /// the tests above).
    @inline(__always)
    package static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}
