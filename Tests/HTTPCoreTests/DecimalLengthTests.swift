import Testing

@testable import HTTPCore

@Suite struct DecimalLengthTests {
    /// Content-Length = 1*DIGIT (RFC 9110 §8.6); what `Int(String)` would accept differs.
    @Test(arguments: [
        ("0", 0), ("7", 7), ("0042", 42), ("65536", 65536),
        ("9223372036854775807", Int.max),
    ])
    func parsesDigits(text: String, value: Int) {
        #expect(parse(text) == value)
    }

    @Test(arguments: ["", "+5", "-0", "0x10", " 5", "5 ", "1_0", "9223372036854775808", "1e3", "５"])
    func refusesEverythingElse(text: String) {
        #expect(parse(text) == nil)
    }

    private func parse(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBytes { DecimalLength.parse($0, 0..<$0.count) }
    }
}
