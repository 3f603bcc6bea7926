import TestSupport
import Testing

@testable import HTTPCore

@Suite(.resourceClass(.compute)) struct ByteWordTests {
    private static let allStops: [ByteWord.Stops] = [
        .controls, .quote, .backslash, .plus, .percent, .nonASCII,
    ]

    /// The byte-at-a-time rule `skipWords` must agree with.
    private static func stops(_ byte: UInt8, at stops: ByteWord.Stops) -> Bool {
        (stops.contains(.controls) && (byte < 0x20 || byte == 0x7F))
            || (stops.contains(.quote) && byte == UInt8(ascii: "\""))
            || (stops.contains(.backslash) && byte == UInt8(ascii: "\\"))
            || (stops.contains(.plus) && byte == UInt8(ascii: "+"))
            || (stops.contains(.percent) && byte == UInt8(ascii: "%"))
            || (stops.contains(.nonASCII) && byte >= 0x80)
    }

    /// What `skipWords` must answer: the first whole word holding a stop, else the start
    /// of the last few bytes.
    private static func reference(_ bytes: [UInt8], _ stops: ByteWord.Stops) -> Int {
        var offset = 0
        while bytes.count - offset >= 8 {
            if bytes[offset..<(offset + 8)].contains(where: { Self.stops($0, at: stops) }) {
                return offset
            }
            offset += 8
        }
        return offset
    }

    private static func skip(_ bytes: [UInt8], _ stops: ByteWord.Stops) -> Int {
        bytes.withUnsafeBytes { ByteWord.skipWords(without: stops, in: $0, from: 0) }
    }

    /// Every byte value at every place of an otherwise plain word, for each kind of stop
    /// alone and for all of them: a word is skipped exactly when none of its bytes stops.
    @Test func everyByteAtEveryPlaceStopsAsTheByteRuleSays() {
        let named: [ByteWord.Stops] = [.jsonEscapes, .jsonPlainEnds, .formEscapes]
        for stops in Self.allStops + named + [ByteWord.Stops(rawValue: 0x3F), []] {
            for place in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var bytes = Array("abcdefghXY".utf8)
                    bytes[place] = byte
                    #expect(Self.skip(bytes, stops) == (Self.stops(byte, at: stops) ? 0 : 8))
                }
            }
        }
    }

    /// Random texts of plain and edge bytes, of lengths around words, for random sets of
    /// stops: the same offset as the byte rule.
    @Test func randomTextsStopWhereTheByteRuleStops() {
        var random = SplitMix64(seed: 0xB7_7E)
        let edges: [UInt8] = [
            0x00, 0x09, 0x1F, 0x20, 0x22, 0x25, 0x2B, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF,
        ]
        var stopped = 0
        for trial in 0..<50_000 {
            let length = trial % 41
            let bytes = (0..<length).map { _ in
                random.next(below: 12) == 0
                    ? edges[random.next(below: edges.count)]
                    : UInt8(0x30 + random.next(below: 0x40))
            }
            let stops = ByteWord.Stops(rawValue: UInt8(random.next(below: 64)))
            let expected = Self.reference(bytes, stops)
            if expected < length / 8 * 8 { stopped += 1 }
            #expect(Self.skip(bytes, stops) == expected)
        }
        #expect(stopped > 5_000 && stopped < 45_000)
    }

    @Test func aScanStartsWhereItIsToldTo() {
        let bytes = Array(#"ab"cdefghijklmnopqrstuvw"#.utf8)
        bytes.withUnsafeBytes { raw in
            #expect(ByteWord.skipWords(without: .quote, in: raw, from: 0) == 0)
            #expect(ByteWord.skipWords(without: .quote, in: raw, from: 3) == 19)
            #expect(ByteWord.skipWords(without: .quote, in: raw, from: 20) == 20)
        }
    }
}

extension ByteWordTests {
    @Test func theNamedSetsAreTheirMembers() {
        #expect(ByteWord.Stops.jsonEscapes == [.controls, .quote, .backslash])
        #expect(ByteWord.Stops.jsonPlainEnds == [.controls, .quote, .backslash, .nonASCII])
        #expect(ByteWord.Stops.formEscapes == [.plus, .percent, .nonASCII])
    }
}
