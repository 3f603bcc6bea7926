import HTTPCore
import Testing

private let small = HTTPLimits(maxBodyBytes: 100, maxChunkExtensionBytes: 16, maxTrailerBytes: 32)

/// What decoding a whole input gave; `consumed` is -1 after an error (how much earlier
/// calls took depends on the split, the error and the data before it do not).
struct ChunkedOutcome: Hashable {
    var body: [UInt8] = []
    var consumed = 0
    var complete = false
    var error: HTTPParseError?

    static func decode(_ input: [UInt8], schedule: [Int], limits: HTTPLimits) -> ChunkedOutcome {
        var decoder = ChunkedDecoder(limits: limits)
        var outcome = ChunkedOutcome()
        var start = 0
        for end in schedule where !decoder.isComplete {
            do throws(HTTPParseError) {
                let used = try decoder.decode(Array(input[start..<end]), into: &outcome.body)
                outcome.consumed += used
                start += used
            } catch {
                outcome.error = error
                outcome.consumed = -1
                break
            }
        }
        outcome.complete = decoder.isComplete
        return outcome
    }

    static func allFeedings(_ input: [UInt8], limits: HTTPLimits) -> Set<ChunkedOutcome> {
        Set(
            Feeding.schedules(count: input.count).map {
                decode(input, schedule: $0, limits: limits)
            })
    }
}

struct ChunkedCase: CustomTestStringConvertible, Sendable {
    let input: String
    var body: String? = nil
    var consumed: Int? = nil
    var error: HTTPParseError? = nil

    var testDescription: String { input.debugDescription }
}

private let goodBodies: [ChunkedCase] = [
    ChunkedCase(input: "5\r\nhello\r\n0\r\n\r\n", body: "hello"),
    ChunkedCase(input: "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", body: "hello world"),
    ChunkedCase(input: "000005\r\nhello\r\n0\r\n\r\n", body: "hello"),
    ChunkedCase(input: "a\r\n0123456789\r\n0\r\n\r\n", body: "0123456789"),
    ChunkedCase(input: "5;a=b;c\r\nhello\r\n0;last\r\n\r\n", body: "hello"),
    ChunkedCase(input: "5 ; a = \"x\\\"y\"\r\nhello\r\n0\r\n\r\n", body: "hello"),
    ChunkedCase(input: "5\r\nhello\r\n0\r\nX-T: 1\r\nY:2\r\n\r\n", body: "hello"),
    ChunkedCase(input: "0\r\n\r\n", body: ""),
    // Stops after the final CRLF: what follows belongs to the next message.
    ChunkedCase(input: "0\r\n\r\nGET / HTTP/1.1\r\n", body: "", consumed: 5),
    // The decoded total may reach the limit exactly.
    ChunkedCase(
        input: "64\r\n" + String(repeating: "z", count: 100) + "\r\n0\r\n\r\n",
        body: String(repeating: "z", count: 100)),
]

private let badBodies: [ChunkedCase] = [
    // chunk-size = 1*HEXDIG (RFC 9112 §7.1), the smuggling payloads among them
    ChunkedCase(input: "0_2e\r\n\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "0x10\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "-1\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "+1\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "\r\n", error: .invalidChunkSize),
    ChunkedCase(input: ";a\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "5 \r\nhello\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "g\r\n", error: .invalidChunkSize),
    ChunkedCase(input: "FFFFFFFFFFFFFFFFF\r\n", error: .invalidChunkSize),
    // CRLF only (RFC 9112 §2.2, §7.1)
    ChunkedCase(input: "2\r\r;a\r\nxx\r\n0\r\n\r\n", error: .bareCR),
    ChunkedCase(input: "5\nhello\r\n0\r\n\r\n", error: .bareLF),
    ChunkedCase(input: "5;a\nhello\r\n", error: .bareLF),
    ChunkedCase(input: "5\r\nhello\n0\r\n\r\n", error: .bareLF),
    ChunkedCase(input: "5\r\nhello\r0\r\n\r\n", error: .bareCR),
    ChunkedCase(input: "5\r\nhelloX\r\n0\r\n\r\n", error: .missingChunkDataCRLF),
    ChunkedCase(input: "0\r\n\n", error: .bareLF),
    ChunkedCase(input: "0\r\nX: 1\n\r\n", error: .bareLF),
    // chunk extensions (RFC 9112 §7.1.1)
    ChunkedCase(input: "5;\r\nhello\r\n", error: .invalidChunkExtension),
    ChunkedCase(input: "5;a b\r\nhello\r\n", error: .invalidChunkExtension),
    ChunkedCase(input: "5;a=\r\nhello\r\n", error: .invalidChunkExtension),
    ChunkedCase(input: "5;a=\"x\r\nhello\r\n", error: .invalidChunkExtension),
    ChunkedCase(input: "5;a=b\u{0}\r\nhello\r\n", error: .invalidChunkExtension),
    ChunkedCase(
        input: "5;" + String(repeating: "a", count: 40) + "\r\n", error: .chunkExtensionTooLong),
    // The cap is per message: four chunks of 5 extension bytes each pass a per-chunk cap
    // of 16 but not a per-message one (CVE-2023-39326 class).
    ChunkedCase(
        input: String(repeating: "1;abcd\r\nx\r\n", count: 4) + "0\r\n\r\n",
        error: .chunkExtensionTooLong),
    // size limit on the decoded total (RFC 9110 §15.5.14)
    ChunkedCase(input: "65\r\n", error: .contentTooLarge),
    ChunkedCase(
        input: "32\r\n" + String(repeating: "z", count: 50) + "\r\n33\r\n", error: .contentTooLarge),
    // trailers are field lines (RFC 9112 §7.1.2)
    ChunkedCase(input: "0\r\nX : 1\r\n\r\n", error: .spaceBeforeColon),
    ChunkedCase(input: "0\r\n\tX: 1\r\n\r\n", error: .obsFold),
    ChunkedCase(input: "0\r\nX: a\u{0}\r\n\r\n", error: .invalidFieldValue),
    ChunkedCase(input: "0\r\nX\r\n\r\n", error: .invalidFieldName),
    ChunkedCase(
        input: "0\r\nX: " + String(repeating: "v", count: 40) + "\r\n\r\n", error: .trailersTooLarge
    ),
    // Trailers too: many short lines add up against one per-message budget.
    ChunkedCase(
        input: "0\r\n" + String(repeating: "A: 1\r\n", count: 6) + "\r\n",
        error: .trailersTooLarge),
]

@Suite struct ChunkedDecoderTests {
    @Test(arguments: goodBodies)
    func decodesTheSameWayHoweverSplit(_ rule: ChunkedCase) throws {
        let input = Feeding.bytes(rule.input)
        let outcomes = ChunkedOutcome.allFeedings(input, limits: small)
        #expect(outcomes.count == 1)
        let outcome = try #require(outcomes.first)
        #expect(outcome.error == nil)
        #expect(outcome.complete)
        #expect(outcome.body == Feeding.bytes(rule.body ?? ""))
        #expect(outcome.consumed == (rule.consumed ?? input.count))
    }

    @Test(arguments: badBodies)
    func rejectsTheSameWayHoweverSplit(_ rule: ChunkedCase) throws {
        let outcomes = ChunkedOutcome.allFeedings(Feeding.bytes(rule.input), limits: small)
        #expect(outcomes.count == 1)
        let outcome = try #require(outcomes.first)
        #expect(outcome.error == rule.error)
        #expect(!outcome.complete)
    }

    /// The amplification itself, at the default limits: one-byte chunks each carrying
    /// 1000 bytes of extensions are refused once the message's extensions pass 1 KiB,
    /// after a few KiB read, not after the 67 MB a 64 KiB body of them used to take.
    @Test func extensionsCannotMultiplyTheBytesReadForOneBody() {
        var decoder = ChunkedDecoder(limits: HTTPLimits())
        let chunk = Array(("1;" + String(repeating: "e", count: 999) + "\r\nx\r\n").utf8)
        var body: [UInt8] = []
        var fed = 0
        var failure: HTTPParseError?
        for _ in 0..<(64 * 1024) {
            do throws(HTTPParseError) {
                _ = try decoder.decode(chunk, into: &body)
                fed += chunk.count
            } catch {
                failure = error
                break
            }
        }
        #expect(failure == .chunkExtensionTooLong)
        #expect(fed < 4 * 1024, "read \(fed) bytes before refusing")
    }

    @Test func incompleteBodiesConsumeEverythingAndWait() throws {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        let input = Feeding.bytes("5\r\nhel")
        #expect(try decoder.decode(input, into: &body) == input.count)
        #expect(!decoder.isComplete)
        #expect(body == Feeding.bytes("hel"))
        #expect(decoder.decodedByteCount == 3)
        _ = try decoder.decode(Feeding.bytes("lo\r\n0\r\n\r\n"), into: &body)
        #expect(decoder.isComplete)
        #expect(body == Feeding.bytes("hello"))
    }

    @Test func readsFromAnOffsetInTheBuffer() throws {
        var decoder = ChunkedDecoder()
        var body: [UInt8] = []
        let buffer = Feeding.bytes("HEAD3\r\nabc\r\n0\r\n\r\n")
        #expect(try decoder.decode(buffer, from: 4, into: &body) == buffer.count - 4)
        #expect(body == Feeding.bytes("abc"))
    }
}
