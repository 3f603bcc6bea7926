import Sealing
import Testing

@Suite struct HexTests {
    @Test(arguments: [
        ("", [] as [UInt8]?),
        ("00ff10", [0x00, 0xFF, 0x10]),
        ("DEADbeef", [0xDE, 0xAD, 0xBE, 0xEF]),
        ("0", nil), ("abc", nil), ("0g", nil), ("g0", nil), (" 0", nil), ("0x10", nil),
        ("+1", nil), ("é0", nil),
    ])
    func decodes(text: String, bytes: [UInt8]?) {
        #expect(Hex.decode(text) == bytes)
    }

    @Test(arguments: [
        ([] as [UInt8], ""), ([0x00], "00"), ([0x0F, 0xA0, 0xFF], "0fa0ff"),
        ([0x12, 0x34, 0xAB, 0xCD], "1234abcd"),
    ])
    func encodesLowercase(bytes: [UInt8], text: String) {
        #expect(Hex.encode(bytes) == text)
        #expect(Hex.decode(text) == bytes)
    }

    /// Every byte: a digit's value in either case, nothing else.
    @Test(arguments: 0...255)
    func valueOfEveryByte(byte: Int) {
        let digits = Array("0123456789abcdef".utf8)
        let upper = Array("0123456789ABCDEF".utf8)
        let byte = UInt8(byte)
        let expected = digits.firstIndex(of: byte) ?? upper.firstIndex(of: byte)
        #expect(Hex.value(byte) == expected.map(UInt8.init))
    }

    @Test(arguments: 0...15)
    func digitsInBothCases(nibble: Int) {
        let nibble = UInt8(nibble)
        #expect(Hex.digit(nibble) == Array("0123456789abcdef".utf8)[Int(nibble)])
        #expect(Hex.digit(nibble, uppercase: true) == Array("0123456789ABCDEF".utf8)[Int(nibble)])
        // Only the low four bits count.
        #expect(Hex.digit(nibble | 0xF0) == Hex.digit(nibble))
    }
}
