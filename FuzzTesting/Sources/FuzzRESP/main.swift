import RESPClient

// libFuzzer entry point over the shared store's reply parser (RESPReplyParser, which reads
// every byte a Redis/Valkey server sends). Besides "never crash", each input is a
// differential test: the parser is incremental, so the same bytes fed whole, in two
// pieces (split chosen by the first byte) and one byte at a time must give the same
// replies and the same violation. Every reply must survive a trip through the RESP2
// encoding: re-encoded and parsed again, it is the same value. Inputs run under the
// default limits and under small ones, so the bounds are reached.

private struct Outcome: Equatable {
    var replies: [RESPValue] = []
    var error: RESPError?
    var midReply = false
}

private func parse(_ bytes: [UInt8], pieces: [Range<Int>], limits: RESPLimits) -> Outcome {
    var parser = RESPReplyParser(limits: limits)
    var outcome = Outcome()
    for piece in pieces {
        do throws(RESPError) {
            try parser.parse(Array(bytes[piece]), into: &outcome.replies)
        } catch {
            guard case .protocolViolation = error else { fatalError("not a protocol violation") }
            outcome.error = error
            return outcome
        }
    }
    outcome.midReply = parser.isMidReply
    return outcome
}

/// RESP2 as a server writes it.
private func encode(_ value: RESPValue, into out: inout [UInt8]) {
    func line(_ type: Character, _ text: String) {
        out += Array("\(type)\(text)\r\n".utf8)
    }
    switch value {
    case .simpleString(let text): line("+", text)
    case .error(let text): line("-", text)
    case .integer(let number): line(":", String(number))
    case .bulkString(nil): line("$", "-1")
    case .bulkString(let bytes?):
        line("$", String(bytes.count))
        out += bytes + [13, 10]
    case .array(nil): line("*", "-1")
    case .array(let elements?):
        line("*", String(elements.count))
        for element in elements { encode(element, into: &out) }
    }
}

/// How many arrays deep a value nests.
private func depth(_ value: RESPValue) -> Int {
    guard case .array(let elements?) = value else { return 0 }
    return 1 + (elements.map(depth).max() ?? 0)
}

private let smallLimits: RESPLimits = {
    var limits = RESPLimits()
    limits.maxBulkBytes = 16
    limits.maxLineBytes = 16
    limits.maxArrayCount = 4
    limits.maxDepth = 3
    limits.maxReplyBytes = 128
    return limits
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESP(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    for limits in [RESPLimits(), smallLimits] {
        let whole = parse(bytes, pieces: [0..<count], limits: limits)
        let split = count > 1 ? Int(bytes[0]) % count : 0
        if parse(bytes, pieces: [0..<split, split..<count], limits: limits) != whole {
            fatalError("a two-piece split changed the answer")
        }
        if count <= 512, parse(bytes, pieces: (0..<count).map { $0..<$0 + 1 }, limits: limits) != whole {
            fatalError("byte-by-byte feeding changed the answer")
        }
        for reply in whole.replies {
            if depth(reply) > limits.maxDepth { fatalError("nesting past maxDepth") }
            var wire: [UInt8] = []
            encode(reply, into: &wire)
            // Simple strings and errors decode invalid UTF-8 as U+FFFD, whose three bytes
            // may pass a line bound the original bytes met: compare only what fits.
            var roomy = limits
            roomy.maxLineBytes = Int.max / 2
            roomy.maxReplyBytes = Int.max / 2
            let again = parse(wire, pieces: [0..<wire.count], limits: roomy)
            if again.replies != [reply] || again.error != nil || again.midReply {
                fatalError("a reply did not survive re-encoding")
            }
        }
    }
    return 0
}
