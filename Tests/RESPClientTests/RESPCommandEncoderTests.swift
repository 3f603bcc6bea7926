import RESPClient
import Testing

@Suite struct RESPCommandEncoderTests {
    @Test func encodesAnArrayOfBulkStrings() throws {
        let wire = try RESPCommandEncoder.encode([Array("SET".utf8), Array("k".utf8), []])
        #expect(wire == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n".utf8))
    }

    @Test func anyBytesTravelUnescaped() throws {
        let argument: [UInt8] = [0x0D, 0x0A, 0x00, 0xFF, UInt8(ascii: "$")]
        let wire = try RESPCommandEncoder.encode([Array("GET".utf8), argument])
        #expect(wire == Array("*2\r\n$3\r\nGET\r\n$5\r\n".utf8) + argument + [0x0D, 0x0A])
    }

    @Test func anEmptyCommandIsRefused() {
        #expect(throws: RESPError.invalidCommand(reason: "a command needs at least its name")) {
            try RESPCommandEncoder.encode([])
        }
    }

    /// The encoder's output is what a server's parser reads back: the same framing our
    /// reply parser reads, as an array of bulk strings.
    @Test func roundTripsThroughTheReplyParser() throws {
        let arguments: [[UInt8]] = [Array("EVAL".utf8), Array("return 1".utf8), [], [0, 1, 2]]
        var parser = RESPReplyParser()
        var replies: [RESPValue] = []
        try parser.parse(try RESPCommandEncoder.encode(arguments), into: &replies)
        #expect(replies == [.array(arguments.map { .bulkString($0) })])
    }
}
