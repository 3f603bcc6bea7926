import Testing

@testable import HTTPCore

/// One field line's value check (RFC 9110 §5.5), which reads eight bytes at a time: every
/// byte value, at every place in a value long enough for several words and a tail, gets
/// the verdict `HTTPGrammar.isFieldValue` gives it alone.
@Suite struct FieldLineTests {
    @Test func everyByteAtEveryPlaceGetsItsOwnVerdict() {
        var mismatches: [String] = []
        let filler = UInt8(ascii: "v")
        for byte in UInt8.min...UInt8.max {
            for place in 0..<21 {
                var value = [UInt8](repeating: filler, count: 21)
                value[place] = byte
                // Whitespace at either end is trimmed, and allowed anyway.
                let expected = HTTPGrammar.isFieldValue(byte)
                if Self.parses(value) != expected {
                    mismatches.append("byte \(byte) at \(place)")
                }
            }
        }
        #expect(mismatches.isEmpty)
    }

    /// Two refused bytes in one word, and a tab beside a refused byte, are refused; tabs
    /// and obs-text alone pass.
    @Test func wordsWithSeveralBytesOfNote() {
        #expect(!Self.parses(Array("ab\u{1}cd\u{7F}efgh".utf8)))
        #expect(!Self.parses(Array("abcdefg\t\u{0}".utf8)))
        #expect(Self.parses(Array("a\tb\tc\td\te\tf\tg".utf8)))
        #expect(Self.parses([0x61] + [UInt8](repeating: 0xFF, count: 15) + [0x80, 0x61]))
    }

    private static func parses(_ value: [UInt8]) -> Bool {
        let line = Array("X-Test:".utf8) + value
        return line.withUnsafeBytes { bytes in
            (try? FieldLine.parse(bytes, 0..<bytes.count, isFirst: false)) != nil
        }
    }
}
