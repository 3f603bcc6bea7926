import RESPClient
import Testing

/// RESP2 replies, valid and not, each fed whole, split at every byte and byte by byte
/// (`Feeding`): the same answer every way, a violation named, and each bound accepted at
/// its value and refused one past it.
@Suite struct RESPReplyParserTests {
    private static let b = Feeding.bytes

    @Test(arguments: [
        ("+OK\r\n", RESPValue.simpleString("OK")),
        ("+\r\n", .simpleString("")),
        ("-ERR wrong\r\n", .error("ERR wrong")),
        (":0\r\n", .integer(0)),
        (":-1\r\n", .integer(-1)),
        (":007\r\n", .integer(7)),
        (":9223372036854775807\r\n", .integer(.max)),
        (":-9223372036854775808\r\n", .integer(.min)),
        ("$0\r\n\r\n", .bulkString([])),
        ("$-1\r\n", .bulkString(nil)),
        ("$6\r\na\r\nb\nc\r\n", .bulkString(b("a\r\nb\nc"))),
        ("*-1\r\n", .array(nil)),
        ("*0\r\n", .array([])),
        (
            "*3\r\n:1\r\n*2\r\n$-1\r\n+x\r\n-E y\r\n",
            .array([.integer(1), .array([.bulkString(nil), .simpleString("x")]), .error("E y")])
        ),
    ])
    func validRepliesParseTheSameEveryWay(text: String, expected: RESPValue) throws {
        let outcome = try #require(Feeding.outcome(Feeding.bytes(text)))
        #expect(outcome == ParseOutcome(replies: [expected]))
    }

    @Test func binaryPayloadsPassThrough() throws {
        let payload = (0...255).map(UInt8.init)
        let outcome = try #require(Feeding.outcome(Feeding.bytes("$256\r\n") + payload + [13, 10]))
        #expect(outcome.replies == [.bulkString(payload)])
    }

    @Test func severalRepliesInOneReadComeOutInOrder() throws {
        let outcome = try #require(Feeding.outcome(Feeding.bytes("+OK\r\n:1\r\n$1\r\nx\r\n*0\r\n")))
        #expect(
            outcome.replies == [.simpleString("OK"), .integer(1), .bulkString([120]), .array([])])
        #expect(!outcome.midReply)
    }

    @Test(arguments: ["+OK", "+OK\r", "$3\r\nab", "$3\r\nabc\r", "*2\r\n:1\r\n", "*1\r\n*1\r\n"])
    func aCutReplyIsIncompleteNotAValue(text: String) throws {
        let outcome = try #require(Feeding.outcome(Feeding.bytes(text)))
        #expect(outcome == ParseOutcome(replies: [], error: nil, midReply: true))
    }

    @Test(arguments: [
        // Type bytes: RESP3, inline text, a blank line.
        ("%1\r\n", "unknown RESP2 type byte"), ("_\r\n", "unknown RESP2 type byte"),
        (",1.5\r\n", "unknown RESP2 type byte"), ("#t\r\n", "unknown RESP2 type byte"),
        (">1\r\n", "unknown RESP2 type byte"), ("PONG\r\n", "unknown RESP2 type byte"),
        ("\r\n", "unknown RESP2 type byte"),
        // Line endings.
        ("+OK\n", "bare LF in a line"), ("+O\rK\r\n", "CR not followed by LF"),
        ("+OK\r\r\n", "CR not followed by LF"), (":1\n", "bare LF in a line"),
        // Integers.
        (":\r\n", "bad integer"), (":-\r\n", "bad integer"), (":+1\r\n", "bad integer"),
        (": 1\r\n", "bad integer"), (":1 \r\n", "bad integer"), (":0x1\r\n", "bad integer"),
        (":9223372036854775808\r\n", "bad integer"), (":-9223372036854775809\r\n", "bad integer"),
        (":99999999999999999999\r\n", "bad integer"),
        (":-09223372036854775808\r\n", "line over 20 bytes"),
        // Bulk strings.
        ("$-2\r\n", "bad bulk string length"), ("$\r\n", "bad bulk string length"),
        ("$+1\r\nx\r\n", "bad bulk string length"),
        ("$3\r\nabcd\r\n", "bulk string not followed by CRLF"),
        ("$3\r\nab\r\n", "bulk string not followed by CRLF"),
        ("$1\r\nx\r\r", "bulk string not followed by CRLF"),
        ("$3\r\nabc\n\n", "bulk string not followed by CRLF"),
        ("$0\r\n\n", "bulk string not followed by CRLF"),
        // Arrays.
        ("*-2\r\n", "bad array count"), ("*x\r\n", "bad array count"),
        ("*1\r\n%0\r\n", "unknown RESP2 type byte"),
    ])
    func violationsAreNamedTheSameEveryWay(text: String, reason: String) throws {
        let outcome = try #require(Feeding.outcome(Feeding.bytes(text)))
        #expect(outcome.error == .protocolViolation(reason: reason))
    }

    @Test func aSpentParserRefusesMore() throws {
        var parser = RESPReplyParser()
        var replies: [RESPValue] = []
        #expect(throws: RESPError.self) { try parser.parse(Feeding.bytes("?"), into: &replies) }
        #expect(throws: RESPError.protocolViolation(reason: "parser used after a violation")) {
            try parser.parse(Feeding.bytes("+OK\r\n"), into: &replies)
        }
        #expect(replies.isEmpty)
    }

    // MARK: bounds, each at its value and one past it

    private static var small: RESPLimits {
        var limits = RESPLimits()
        limits.maxBulkBytes = 8
        limits.maxLineBytes = 6
        limits.maxArrayCount = 3
        limits.maxDepth = 2
        limits.maxReplyBytes = 64
        return limits
    }

    @Test func bulkLength() throws {
        let ok = try #require(
            Feeding.outcome(Feeding.bytes("$8\r\n12345678\r\n"), limits: Self.small))
        #expect(ok.replies == [.bulkString(Feeding.bytes("12345678"))])
        let over = try #require(
            Feeding.outcome(Feeding.bytes("$9\r\n123456789\r\n"), limits: Self.small))
        #expect(over.error == .protocolViolation(reason: "bulk string over 8 bytes"))
    }

    @Test func theDefaultBulkBoundIs512KiB() throws {
        var parser = RESPReplyParser()
        var replies: [RESPValue] = []
        let payload = [UInt8](repeating: 0x61, count: 512 * 1024)
        try parser.parse(Feeding.bytes("$524288\r\n") + payload + [13, 10], into: &replies)
        #expect(replies == [.bulkString(payload)])
        #expect(throws: RESPError.protocolViolation(reason: "bulk string over 524288 bytes")) {
            try parser.parse(Feeding.bytes("$524289\r\n"), into: &replies)
        }
    }

    @Test func lineLength() throws {
        let ok = try #require(Feeding.outcome(Feeding.bytes("-ERR 1\r\n"), limits: Self.small))
        #expect(ok.replies == [.error("ERR 1")])
        let six = try #require(Feeding.outcome(Feeding.bytes("+abcdef\r\n"), limits: Self.small))
        #expect(six.replies == [.simpleString("abcdef")])
        let over = try #require(Feeding.outcome(Feeding.bytes("+abcdefg\r\n"), limits: Self.small))
        #expect(over.error == .protocolViolation(reason: "line over 6 bytes"))
        // Past the bound before a bare LF: the bound is named, however the bytes came
        // (FuzzRESP's first find, seed regression-line-bound-before-bare-lf).
        let first = try #require(
            Feeding.outcome(Feeding.bytes("+abcdefgh\n\r\n"), limits: Self.small))
        #expect(first.error == .protocolViolation(reason: "line over 6 bytes"))
    }

    @Test func arrayCount() throws {
        let ok = try #require(
            Feeding.outcome(Feeding.bytes("*3\r\n:1\r\n:2\r\n:3\r\n"), limits: Self.small))
        #expect(ok.replies == [.array([.integer(1), .integer(2), .integer(3)])])
        let over = try #require(Feeding.outcome(Feeding.bytes("*4\r\n"), limits: Self.small))
        #expect(over.error == .protocolViolation(reason: "array over 3 elements"))
    }

    @Test func nestingDepth() throws {
        for text in ["*1\r\n*1\r\n:1\r\n", "*1\r\n*0\r\n", "*1\r\n*-1\r\n"] {
            let ok = try #require(Feeding.outcome(Feeding.bytes(text), limits: Self.small))
            #expect(ok.replies.count == 1, "\(text)")
        }
        // An empty array is as deep as a full one.
        for text in ["*1\r\n*1\r\n*1\r\n", "*1\r\n*1\r\n*0\r\n"] {
            let over = try #require(Feeding.outcome(Feeding.bytes(text), limits: Self.small))
            #expect(over.error == .protocolViolation(reason: "arrays nested over 2 deep"))
        }
    }

    /// A whole reply's bytes, framing included: 64 accepted, 65 refused, and the budget
    /// starts again for the next reply.
    @Test func replySize() throws {
        // *3 (4) + 3 × "$8\r\n12345678\r\n" (14 each) = 46; then a 6-byte line +x…\r\n.
        let element = "$8\r\n12345678\r\n"
        let body = "*4\r\n" + element + element + element
        let exact = body + "+abcdef\r\n"  // 46 + 9 = 55
        let okLimits = { () -> RESPLimits in
            var limits = Self.small
            limits.maxArrayCount = 4
            limits.maxReplyBytes = 55
            return limits
        }()
        let ok = try #require(Feeding.outcome(Feeding.bytes(exact + exact), limits: okLimits))
        #expect(ok.replies.count == 2)
        var tight = okLimits
        tight.maxReplyBytes = 54
        let over = try #require(Feeding.outcome(Feeding.bytes(exact), limits: tight))
        #expect(over.error == .protocolViolation(reason: "reply over 54 bytes"))
    }

    /// A declared bulk length that cannot fit in what is left of the reply is refused
    /// before its bytes arrive (no buffer grows towards it).
    @Test func aBulkStringThatCannotFitIsRefusedAtItsLength() throws {
        var limits = RESPLimits()
        limits.maxReplyBytes = 20
        let outcome = try #require(Feeding.outcome(Feeding.bytes("*1\r\n$13\r\n"), limits: limits))
        #expect(outcome.error == .protocolViolation(reason: "reply over 20 bytes"))
        let fits = try #require(
            Feeding.outcome(Feeding.bytes("*1\r\n$5\r\nabcde\r\n"), limits: limits))
        #expect(fits.replies == [.array([.bulkString(Feeding.bytes("abcde"))])])
    }
}
