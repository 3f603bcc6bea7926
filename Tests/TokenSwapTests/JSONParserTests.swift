import TestSupport
import Testing

@testable import TokenSwap

@Suite(.resourceClass(.compute)) struct JSONParserTests {
    @Test(arguments: [
        (#"{"a":1,"b":[true,false,null],"c":"x"}"#, #"{"a":1,"b":[true,false,null],"c":"x"}"#),
        (" { \"a\" : -0.5e+10 } ", #"{"a":-0.5e+10}"#),
        (#"{"big":123456789012345678901234567890}"#, #"{"big":123456789012345678901234567890}"#),
        (#""\u00e9\ud83d\ude00\n\"\\\/""#, "\"é😀\\n\\\"\\\\/\""),
        ("[]", "[]"),
        ("{}", "{}"),
        (#""\u0001""#, #""\u0001""#),
        // Raw non-ASCII next to escapes, and escapes at both ends of a run.
        ("\"é\\t\\u00e9x\\\"\"", "\"é\\téx\\\"\""),
        ("\"\u{7F}a\"", #""\u007fa""#),
    ])
    func roundTrips(input: String, output: String) throws {
        let value = try JSONParser.parse(Array(input.utf8))
        #expect(String(decoding: value.serialized, as: UTF8.self) == output)
    }

    /// The writer finds runs a word at a time; every byte it must escape, at every place
    /// in strings around word lengths, is escaped as the byte-by-byte rule says, and every
    /// other byte (non-ASCII included) is copied.
    @Test func aStringIsWrittenAsItsBytesSayWhereverTheEscapesFall() {
        let special: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x22, 0x5C, 0x7F, 0x20, 0x7E, 0x80]
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<20_000 {
            let length = trial % 27
            var bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            for _ in 0..<Int.random(in: 0...3, using: &generator) where length > 0 {
                bytes[Int.random(in: 0..<length, using: &generator)] =
                    special.randomElement(using: &generator)!
            }
            // An "é" (two UTF-8 bytes) now and then, so high bits sit beside the rest.
            if trial % 5 == 0 { bytes.insert(contentsOf: [0xC3, 0xA9], at: length / 2) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(JSONValue.string(text).serialized == Self.escapedByteByByte(text))
        }
    }

    private static func escapedByteByByte(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }

    @Test(arguments: [
        "", "{", "{\"a\":1,}", "[1,]", "01", "-", "1.", "1e", "+1", ".5", "{\"a\" 1}", "{a:1}",
        "'x'",
        "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u12\"", "nul", "truex", "{} {}",
        "{\"a\":1,\"a\":2}", "// c\n{}", "[1 2]",
    ])
    func rejects(input: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(input.utf8)) }
    }

    /// Strings are read a word at a time where they are plain: a control byte, DEL, a
    /// non-ASCII character or a broken UTF-8 sequence anywhere in strings around word
    /// lengths is read as the byte-by-byte rule reads it.
    @Test func aStringIsReadAsItsBytesSayWhereverTheyFall() throws {
        var generator = SystemRandomNumberGenerator()
        let edges: [[UInt8]] = [[0x00], [0x1F], [0x7F], [0x20], [0x7E], [0xC3, 0xA9], [0xC3], [0xFF]]
        for trial in 0..<20_000 {
            let length = trial % 27
            var content = (0..<length).map { _ in
                UInt8.random(in: 0x23...0x5B, using: &generator)
            }
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                let at = Int.random(in: 0...content.count, using: &generator)
                content.insert(contentsOf: edges.randomElement(using: &generator)!, at: at)
            }
            let text = [0x22] + content + [0x22]
            let valid = !content.contains { $0 < 0x20 } && String(validating: content, as: UTF8.self) != nil
            if valid {
                #expect(try JSONParser.parse(text) == .string(String(decoding: content, as: UTF8.self)))
            } else {
                #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
            }
        }
    }

    @Test func rejectsInvalidUTF8() {
        // In a string with escapes too: the bytes are validated once, after unescaping.
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse([0x22, 0xC3, 0x5C, 0x6E, 0x22])
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22])
        }
    }

    @Test func nestingIsBounded() {
        let deep =
            String(repeating: "[", count: JSONParser.maxDepth + 1)
            + String(repeating: "]", count: JSONParser.maxDepth + 1)
        #expect(throws: JSONParseError.tooDeep) { try JSONParser.parse(Array(deep.utf8)) }
        let ok =
            String(repeating: "[", count: JSONParser.maxDepth)
            + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(ok.utf8)) }
    }

    @Test func duplicatesAreFoundInLargeObjectsToo() throws {
        let names = (0..<40).map { "\"m\($0)\":\($0)" }
        let unique = "{" + names.joined(separator: ",") + "}"
        #expect(throws: Never.self) { try JSONParser.parse(Array(unique.utf8)) }
        for repeated in ["m3", "m20", "m39"] {
            let text = "{" + names.joined(separator: ",") + ",\"\(repeated)\":0}"
            #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(text.utf8)) }
        }
    }

    @Test(arguments: ["tru", "fals", "nul", "t", "[tr"])
    func truncatedLiteralsEndEarly(input: String) {
        #expect(throws: JSONParseError.unexpectedEnd) { try JSONParser.parse(Array(input.utf8)) }
    }

    @Test func membersKeepOrderAndSubscriptFinds() throws {
        let value = try JSONParser.parse(Array(#"{"z":"1","a":"2"}"#.utf8))
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.name) == ["z", "a"])
        #expect(value["a"]?.stringValue == "2")
        #expect(value["missing"] == nil)
    }
}
