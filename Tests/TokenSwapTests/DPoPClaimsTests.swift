import Sealing
import TestSupport
import Testing

@testable import TokenSwap

/// The claims reader of DPoP proofs (`DPoPClaims`, CONTRACT §13): the flat reader takes
/// exactly the shape clients send and declines everything else to `JSONParser`, so every
/// malformed claims set is refused as before and every valid one reads the same members.
@Suite(.resourceClass(.compute)) struct DPoPClaimsTests {
    static let claims =
        #"{"jti":"e1j3V_bKic8-LAEB","htm":"POST","htu":"https://tokenswap.example/v1/spotify/refresh","iat":1767225600,"nonce":"AAECAwQFBgcICQoLDA0ODw"}"#
    static let members: [String: String] = [
        "jti": "e1j3V_bKic8-LAEB", "htm": "POST",
        "htu": "https://tokenswap.example/v1/spotify/refresh", "iat": "1767225600",
        "nonce": "AAECAwQFBgcICQoLDA0ODw",
    ]

    /// The members a `DPoPClaims` names, as text.
    private static func named(_ claims: DPoPClaims, in text: UnsafeBufferPointer<UInt8>)
        -> [String: String]
    {
        var named: [String: String] = [:]
        let ranges = [
            ("jti", claims.jti), ("htm", claims.htm), ("htu", claims.htu), ("iat", claims.iat),
            ("nonce", claims.nonce),
        ]
        for case (let name, let range?) in ranges {
            named[name] = String(
                decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        }
        return named
    }

    /// What the flat reader makes of `text`: nil when it declines.
    private func flat(_ text: [UInt8]) -> [String: String]? {
        text.withUnsafeBufferPointer { buffer in
            DPoPClaims.readFlat(buffer).map { Self.named($0, in: buffer) }
        }
    }

    private func flat(_ text: String) -> [String: String]? { flat(Array(text.utf8)) }

    /// What the JSON parser makes of `text`: nil when it refuses it or it is no object.
    private func parsed(_ text: [UInt8]) -> [String: String]? {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return nil }
        var storage: [UInt8] = []
        let claims = DPoPClaims(members: members, storage: &storage)
        return storage.withUnsafeBufferPointer { Self.named(claims, in: $0) }
    }

    /// What the checker's path makes of `text` (base64url-encoded first): the members, or
    /// the refusal.
    private func decoded(_ text: String) -> Result<[String: String], DPoPProofFailure> {
        let encoded = Array(Base64URL.encode(Array(text.utf8)).utf8)[...]
        return Result { () throws(DPoPProofFailure) in
            try DPoPClaims.decode(encoded) { text, claims throws(DPoPProofFailure) in
                Self.named(claims, in: text)
            }
        }
    }

    @Test func aFlatClaimsSetIsReadInPlace() {
        #expect(flat(Self.claims) == Self.members)
        let spaced =
            " \t{ \"jti\" : \"e1j3V_bKic8-LAEB\" ,\r\n\"htm\":\"POST\", \"other\": [1] }"
        #expect(flat(spaced) == nil)
        let withOthers =
            "\n{ \"jti\" : \"e1j3V_bKic8-LAEB\" ,\r\n\"x\":true,\"y\":false,\"z\":null,\"n\":-1.5e+3,\"htm\":\"POST\" }\t"
        #expect(flat(withOthers) == ["jti": "e1j3V_bKic8-LAEB", "htm": "POST"])
        #expect(flat("{}") == [:])
        #expect(flat(#"{"d":"\#(String(UnicodeScalar(0x7F)))"}"#) == [:])
        #expect(decoded(Self.claims) == .success(Self.members))
    }

    /// A member of another type names nothing: the rule that needs it refuses.
    @Test func wrongTypesReadAsAbsent() {
        let text = #"{"jti":16,"htm":["POST"],"htu":null,"iat":"1767225600","nonce":true}"#
        #expect(decoded(text) == .success([:]))
        #expect(flat(#"{"jti":16,"htm":false,"htu":null,"iat":"1","nonce":1}"#) == [:])
        #expect(flat(#"{"iat":1767225600.5}"#) == ["iat": "1767225600.5"])
    }

    /// Each shape outside the flat one is declined by the flat reader; what the parser
    /// then refuses is refused, with no member read.
    @Test(arguments: [
        #"{"jti":"a","jti":"b"}"#, #"{"htm":"POST","htm":"POST"}"#, #"{"x":1,"x":2}"#,
        #"{"jti":"e1j3V_bKic8-LAEB","htu":"https://x.example/""#, #"{"jti":"abc"} x"#,
        #"{"jti":"abc",}"#, #"{,}"#, #"{"jti" "abc"}"#, #"{"jti":}"#, #"{"jti":"ab"#,
        #"["jti"]"#, #""jti""#, "", " ", "{", "}", #"{"n":01}"#, #"{"n":1.}"#, #"{"n":-}"#,
        #"{"n":1e}"#, #"{"n":+1}"#, #"{"n":.5}"#, #"{"t":tru}"#, #"{"t":True}"#,
        #"{"s":"a\x"}"#, "{\"s\":\"a\u{1}b\"}", "{\"s\":\"line\nbreak\"}", #"{jti:"a"}"#,
        #"{'jti':'a'}"#, #"{"jti":"a"}{"#,
    ])
    func malformedClaimsAreRefused(_ text: String) {
        #expect(flat(text) == nil)
        guard case .failure(.invalid) = decoded(text) else {
            Issue.record("accepted")
            return
        }
    }

    /// Escapes, non-ASCII text, nested values and larger objects are valid JSON the flat
    /// reader leaves to the parser, which reads them as it always has: an escaped name is
    /// its unescaped self (so it repeats a member), an escaped value its unescaped text.
    @Test func validJSONOutsideTheFlatShapeIsReadByTheParser() {
        let escaped = #"{"jti":"e1j3V_bKic8-\u004cAEB","htu":"https:\/\/tokenswap.example\/v1"}"#
        #expect(flat(escaped) == nil)
        #expect(
            decoded(escaped)
                == .success(["jti": "e1j3V_bKic8-LAEB", "htu": "https://tokenswap.example/v1"]))
        #expect(flat(#"{"jti":"é-0123456789abcdef"}"#) == nil)
        #expect(
            decoded(#"{"jti":"é-0123456789abcdef"}"#) == .success(["jti": "é-0123456789abcdef"]))
        #expect(flat(#"{"cnf":{"jkt":"x"},"htm":"POST"}"#) == nil)
        #expect(decoded(#"{"cnf":{"jkt":"x"},"htm":"POST"}"#) == .success(["htm": "POST"]))
        let repeatedByEscape = #"{"jti":"e1j3V_bKic8-LAEB","j\u0074i":"another-jti-01234"}"#
        #expect(flat(repeatedByEscape) == nil)
        #expect(decoded(repeatedByEscape) == .failure(.invalid("payload repeats a member")))
        let nestedRepeat = #"{"cnf":{"a":1,"a":2},"htm":"POST"}"#
        #expect(decoded(nestedRepeat) == .failure(.invalid("payload repeats a member")))
        // Bad UTF-8 is refused by the parser.
        let badUTF8: [UInt8] = Array(#"{"jti":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        #expect(flat(badUTF8) == nil)
        #expect(parsed(badUTF8) == nil)
    }

    /// Up to `maxFlatMemberCount` members are read in place; one more goes to the parser,
    /// whose answer is the same.
    @Test func theFlatReaderIsBoundedInMembers() {
        func object(_ count: Int) -> String {
            "{" + (0..<count).map { #""m\#($0)":\#($0)"# }.joined(separator: ",")
                + #","htm":"POST"}"#
        }
        let limit = DPoPClaims.maxFlatMemberCount
        #expect(flat(object(limit - 1)) == ["htm": "POST"])
        #expect(flat(object(limit)) == nil)
        #expect(decoded(object(limit)) == .success(["htm": "POST"]))
        #expect(decoded(object(500)) == .success(["htm": "POST"]))
        let repeatedLate = object(limit + 4).dropLast() + #","m3":1}"#
        #expect(decoded(String(repeatedLate)) == .failure(.invalid("payload repeats a member")))
    }

    /// The payload's own structure: base64url and the decoded bound stay where they were.
    @Test func thePayloadMustBeBase64URL() {
        for encoded in ["", "A", "e30=", "e30+", "e3 0"] {
            let result = Result { () throws(DPoPProofFailure) in
                try DPoPClaims.decode(Array(encoded.utf8)[...]) { _, _ throws(DPoPProofFailure) in 0
                }
            }
            #expect(result == .failure(.invalid("payload is not base64url")))
        }
    }

    /// Whatever the flat reader accepts, the parser reads to the same members: mutations
    /// of a real claims set (bytes replaced, inserted, removed, from the grammar's own
    /// characters and a few others), each compared both ways.
    @Test func theFlatReaderAgreesWithTheParser() {
        var random = SplitMix64(seed: 0xD0_9C1A_1A5)
        let alphabet =
            Array(#"{}[]":,.-+eE0129 tfnrul"\/aé"#.utf8) + [0x09, 0x0A, 0x00, 0x7F, 0xFF]
        let base = Array(Self.claims.utf8)
        var read = 0
        for _ in 0..<20_000 {
            let text = random.mutation(of: base, from: alphabet)
            guard let fast = flat(text) else { continue }
            read += 1
            #expect(parsed(text) == fast)
        }
        // The mutations reach both sides: many stay flat, many do not.
        #expect(read > 1_000 && read < 19_000)
    }

    /// String content is skipped a word at a time (`ByteWord.skipWords`, tested on its
    /// own in HTTPCoreTests); strings longer than a word, with an edge byte anywhere, read
    /// as the parser reads them, and only plain bytes (0x20–0x7F but `"` and `\`) read.
    @Test func stringContentReadsAsTheParserReadsIt() {
        func byteIsPlain(_ byte: UInt8) -> Bool {
            byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        let edges: [UInt8] = [
            0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xFF,
        ]
        // Strings longer than a word, with an edge byte anywhere, read as the parser reads.
        for length in [7, 8, 9, 15, 16, 17, 40] {
            for at in 0..<length {
                for edge in edges {
                    var value = Array(repeating: UInt8(ascii: "a"), count: length)
                    value[at] = edge
                    let text = Array(#"{"jti":""#.utf8) + value + Array(#"","iat":1}"#.utf8)
                    if let fast = flat(text) { #expect(parsed(text) == fast) }
                    #expect((flat(text) != nil) == byteIsPlain(edge))
                }
            }
        }
    }

    @Test func numericDatesAreReadFromTheNumbersText() {
        func seconds(_ text: String) -> Int64? {
            var text = text
            return text.withUTF8 { DPoPProofChecker.seconds($0) }
        }
        #expect(seconds("1767225600") == 1_767_225_600)
        #expect(seconds("1767225600.999") == 1_767_225_600)
        #expect(seconds("-0.5") == 0)
        #expect(seconds("0") == 0)
        #expect(seconds("9223372036854775807") == .max)
        #expect(seconds("-9223372036854775808") == .min)
        for refused in [
            "9223372036854775808", "-9223372036854775809", "99999999999999999999",
            "1e3", "1.5E2", "", "-",
        ] {
            #expect(seconds(refused) == nil)
        }
    }
}
