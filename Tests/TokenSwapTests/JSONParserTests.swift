import Testing

@testable import TokenSwap

@Suite struct JSONParserTests {
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

    @Test(arguments: [
        "", "{", "{\"a\":1,}", "[1,]", "01", "-", "1.", "1e", "+1", ".5", "{\"a\" 1}", "{a:1}",
        "'x'",
        "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u12\"", "nul", "truex", "{} {}",
        "{\"a\":1,\"a\":2}", "// c\n{}", "[1 2]",
    ])
    func rejects(input: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(input.utf8)) }
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
