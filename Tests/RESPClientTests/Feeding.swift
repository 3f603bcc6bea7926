import RESPClient

/// What the parser made of an input: the complete replies, and the violation if one
/// stopped it, plus whether a reply was left half-read.
struct ParseOutcome: Equatable {
    var replies: [RESPValue] = []
    var error: RESPError?
    var midReply = false
}

/// Feeds input to the reply parser in every way a network could deliver it: whole,
/// split once at every byte, and one byte at a time. The parser is incremental, so every
/// way must give the same answer (an answer that depends on the split is a framing bug).
enum Feeding {
    static func pieces(_ count: Int) -> [[Range<Int>]] {
        var result: [[Range<Int>]] = [[0..<count]]
        if count > 1 {
            for split in 1..<count { result.append([0..<split, split..<count]) }
            result.append((0..<count).map { $0..<$0 + 1 })
        }
        return result
    }

    static func parse(_ input: [UInt8], pieces: [Range<Int>], limits: RESPLimits) -> ParseOutcome {
        var parser = RESPReplyParser(limits: limits)
        var outcome = ParseOutcome()
        for piece in pieces {
            do {
                try parser.parse(Array(input[piece]), into: &outcome.replies)
            } catch {
                outcome.error = error
                return outcome
            }
        }
        outcome.midReply = parser.isMidReply
        return outcome
    }

    /// The one outcome every way of feeding `input` gives; records a difference as a
    /// failure of the calling test.
    static func outcome(_ input: [UInt8], limits: RESPLimits = RESPLimits()) -> ParseOutcome? {
        let ways = pieces(input.count).map { parse(input, pieces: $0, limits: limits) }
        guard let first = ways.first, ways.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
