import TestSupport
import Testing

@testable import TokenSwap

/// A kept answer's replay (CONTRACT §12): `expires_in` counts down by the whole seconds
/// since the provider answered, every other member the same. The count-down rewrites the
/// one number in place; the parser's way (`countedDownByParsing`) is the reference.
@Suite(.resourceClass(.compute)) struct KeptAnswerTests {
    @Test func expiresInNeverGoesBelowZero() {
        let body = Array(#"{"access_token":"a","expires_in":30,"x":1}"#.utf8)
        #expect(
            String(decoding: KeptAnswer.countedDown(body, by: 45), as: UTF8.self)
                == #"{"access_token":"a","expires_in":0,"x":1}"#)
        #expect(
            String(decoding: KeptAnswer.countedDown(body, by: 10), as: UTF8.self)
                == #"{"access_token":"a","expires_in":20,"x":1}"#)
        // No count-down within the first second, and nothing to count without the member.
        #expect(KeptAnswer.countedDown(body, by: 0) == body)
        let without = Array(#"{"access_token":"a"}"#.utf8)
        #expect(KeptAnswer.countedDown(without, by: 5) == without)
        // A provider's huge integer saturates rather than trapping.
        let huge = Array(#"{"expires_in":-9223372036854775808}"#.utf8)
        #expect(
            String(decoding: KeptAnswer.countedDown(huge, by: 5), as: UTF8.self)
                == #"{"expires_in":0}"#)
    }

    @Test func onlyTheTopLevelMembersNumberCounts() {
        func counted(_ text: String, by seconds: Int64 = 10) -> String {
            String(decoding: KeptAnswer.countedDown(Array(text.utf8), by: seconds), as: UTF8.self)
        }
        // Nested objects, and a string holding the name, are passed over.
        #expect(
            counted(#"{"a":{"expires_in":5},"b":["expires_in",{"expires_in":6}],"expires_in":30}"#)
                == #"{"a":{"expires_in":5},"b":["expires_in",{"expires_in":6}],"expires_in":20}"#)
        #expect(
            counted(#"{"s":"\"expires_in\":7","expires_in":30}"#)
                == #"{"s":"\"expires_in\":7","expires_in":20}"#)
        // Not an integer: unchanged.
        for unchanged in [
            #"{"expires_in":"30"}"#, #"{"expires_in":3600.5}"#, #"{"expires_in":1e3}"#,
            #"{"expires_in":null}"#, #"["expires_in",30]"#, #"{"expires_in":99999999999999999999}"#,
        ] {
            #expect(counted(unchanged) == unchanged)
        }
        // Whitespace around the member is kept.
        #expect(counted(#"{ "expires_in" : 30 }"#) == #"{ "expires_in" : 20 }"#)
        // A name spelled with an escape is the same name: the parser decides.
        #expect(counted(#"{"expires\u005fin":30}"#) == #"{"expires_in":20}"#)
    }

    /// Whatever the text, the count-down reads as the parser's: mutations of an answer
    /// (bytes replaced, inserted, removed), every one that parses as an object compared
    /// member by member, and byte for byte when the text is in this service's compact form.
    @Test func theScanAgreesWithTheParser() throws {
        var random = SplitMix64(seed: 0x0E_C0DE_D0)
        let alphabet = Array(#"{}[]":,.-e0129 tn"\xu_"#.utf8) + Array("expires_in".utf8)
        let base = Array(
            #"{"access_token":"BQD\"x","token_type":"Bearer","n":{"expires_in":1},"expires_in":3600,"scope":"a b","refresh_token":"AQB"}"#
                .utf8)
        var compared = 0
        var compact = 0
        for _ in 0..<20_000 {
            let text = random.mutation(of: base, from: alphabet)
            guard case .object? = try? JSONParser.parse(text) else {
                _ = KeptAnswer.countedDown(text, by: 7)  // never traps
                continue
            }
            compared += 1
            let fast = KeptAnswer.countedDown(text, by: 7)
            let reference = KeptAnswer.countedDownByParsing(text, by: 7)
            #expect(try JSONParser.parse(fast) == JSONParser.parse(reference))
            if let value = try? JSONParser.parse(text), value.serialized == text {
                compact += 1
                #expect(fast == reference)
            }
        }
        #expect(compared > 2_000)
        #expect(compact > 1_000)
    }
}
