import TestSupport
import Testing

@testable import HTTPCore

@Suite(.resourceClass(.compute)) struct FieldCheckTests {
    /// A value is checked a word at a time; every control byte at every place, in values
    /// around word lengths, is refused as the byte-by-byte rule refuses it, and a tab or a
    /// non-ASCII byte is let through.
    @Test func aValueIsValidExactlyWhenEachOfItsBytesIs() {
        let special: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x20, 0x7E]
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<20_000 {
            let length = trial % 27
            var bytes = (0..<length).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
            if length > 0, trial % 3 != 0 {
                bytes[Int.random(in: 0..<length, using: &generator)] =
                    special.randomElement(using: &generator)!
            }
            if trial % 5 == 0 { bytes.insert(contentsOf: [0xC3, 0xA9], at: length / 2) }
            let value = String(decoding: bytes, as: UTF8.self)
            #expect(
                FieldCheck.isValidValue(value) == value.utf8.allSatisfy(HTTPGrammar.isFieldValue))
        }
    }

    @Test(arguments: [
        ("Content-Length", true), ("content-length", true), ("Transfer-Encoding", true),
        ("TRANSFER-ENCODING", true), ("Connection", true), ("connection", true),
        ("Content-Lengths", false), ("Content-Type", false), ("Connectio", false),
        ("Keep-Alive", false), ("", false),
    ])
    func framingFieldsAreTheThreeTheEncoderWrites(name: String, isFraming: Bool) {
        #expect(FieldCheck.isFramingField(name) == isFraming)
    }
}
