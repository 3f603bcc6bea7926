/// An incremental, strict, bounded RESP2 reply parser: bytes go in as they arrive, in any
/// split, and complete replies come out in order. Nothing is buffered but the reply in
/// progress, and that is bounded by `RESPLimits`.
///
/// Strict: every line ends in CRLF (a bare CR or LF is refused), integers and lengths are
/// an optional `-` and at least one digit with no `+`, blank or overflow, a bulk string's
/// payload is followed by CRLF exactly, and only the five RESP2 type bytes start a value
/// (RESP3's `_`, `%`, `~`, `,`, `#`, `!`, `=`, `(`, `|`, `>` and inline text are refused:
/// the client never asks for RESP3). The first violation throws `.protocolViolation`;
/// the parser is then spent (the connection is closed, there is no way to resynchronize).
public struct RESPReplyParser: Sendable {
    private enum Kind {
        case simpleString
        case error
        case integer
        case bulkLength
        case arrayCount
    }

    private enum State {
        /// Expecting a type byte.
        case type
        /// Reading a line of `Kind` up to CR.
        case line(Kind)
        /// Saw CR after a line; expecting LF.
        case lineFeed(Kind)
        /// Reading `remaining` more payload bytes of a bulk string.
        case bulk(remaining: Int)
        /// After a bulk payload: expecting CR, then LF.
        case bulkCarriageReturn
        case bulkLineFeed
        case failed
    }

    private struct Frame {
        var remaining: Int
        var elements: [RESPValue]
    }

    public let limits: RESPLimits
    private var state = State.type
    private var line: [UInt8] = []
    private var bulk: [UInt8] = []
    /// The arrays being filled, outermost first.
    private var stack: [Frame] = []
    /// Bytes of the reply in progress so far.
    private var replyBytes = 0

    public init(limits: RESPLimits = RESPLimits()) {
        self.limits = limits
    }

    /// Whether part of a reply has arrived and the rest has not: a connection that ends
    /// now ends mid-reply.
    public var isMidReply: Bool {
        if case .type = state { return !stack.isEmpty }
        return true
    }

    /// Takes every byte of `input` and appends the replies it completes to `replies`.
    /// - Throws: `.protocolViolation` naming the rule broken (never the bytes).
    public mutating func parse(_ input: UnsafeRawBufferPointer, into replies: inout [RESPValue])
        throws(RESPError)
    {
        guard case .failed = state else {
            var index = 0
            do throws(RESPError) {
                while index < input.count {
                    index = try step(input, from: index, into: &replies)
                }
            } catch {
                state = .failed
                line = []
                bulk = []
                stack = []
                throw error
            }
            return
        }
        throw .protocolViolation(reason: "parser used after a violation")
    }

    /// The same, for an array of bytes.
    public mutating func parse(_ input: [UInt8], into replies: inout [RESPValue])
        throws(RESPError)
    {
        var copy = self
        let outcome = input.withUnsafeBytes { raw -> RESPError? in
            do throws(RESPError) {
                try copy.parse(raw, into: &replies)
                return nil
            } catch {
                return error
            }
        }
        self = copy
        if let outcome { throw outcome }
    }

    /// Consumes at least one byte from `index`; returns the next index.
    private mutating func step(
        _ input: UnsafeRawBufferPointer, from index: Int, into replies: inout [RESPValue]
    ) throws(RESPError) -> Int {
        switch state {
        case .type:
            try count(1)
            switch input[index] {
            case UInt8(ascii: "+"): state = .line(.simpleString)
            case UInt8(ascii: "-"): state = .line(.error)
            case UInt8(ascii: ":"): state = .line(.integer)
            case UInt8(ascii: "$"): state = .line(.bulkLength)
            case UInt8(ascii: "*"): state = .line(.arrayCount)
            default: throw .protocolViolation(reason: "unknown RESP2 type byte")
            }
            return index + 1
        case .line(let kind):
            // Up to the CR, in one go; each byte is checked as it would be if it came
            // alone (the bare LF, then the line's bound, then the reply's), so the
            // violation named does not depend on how the bytes were split.
            let maxLine = kind == .simpleString || kind == .error ? limits.maxLineBytes : 20
            var end = index
            while end < input.count, input[end] != 0x0D {
                guard input[end] != 0x0A else {
                    throw .protocolViolation(reason: "bare LF in a line")
                }
                guard line.count + (end - index) < maxLine else {
                    throw .protocolViolation(reason: "line over \(maxLine) bytes")
                }
                guard replyBytes + (end - index) < limits.maxReplyBytes else {
                    throw .protocolViolation(reason: "reply over \(limits.maxReplyBytes) bytes")
                }
                end += 1
            }
            replyBytes += end - index
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<end]))
            if end < input.count {
                try count(1)
                state = .lineFeed(kind)
                return end + 1
            }
            return end
        case .lineFeed(let kind):
            try count(1)
            guard input[index] == 0x0A else {
                throw .protocolViolation(reason: "CR not followed by LF")
            }
            state = .type
            try finishLine(kind, into: &replies)
            return index + 1
        case .bulk(let remaining):
            let taken = min(remaining, input.count - index)
            try count(taken)
            bulk.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<index + taken]))
            state = remaining == taken ? .bulkCarriageReturn : .bulk(remaining: remaining - taken)
            return index + taken
        case .bulkCarriageReturn:
            try count(1)
            guard input[index] == 0x0D else {
                throw .protocolViolation(reason: "bulk string not followed by CRLF")
            }
            state = .bulkLineFeed
            return index + 1
        case .bulkLineFeed:
            try count(1)
            guard input[index] == 0x0A else {
                throw .protocolViolation(reason: "bulk string not followed by CRLF")
            }
            state = .type
            let payload = bulk
            bulk = []
            complete(.bulkString(payload), into: &replies)
            return index + 1
        case .failed:
            throw .protocolViolation(reason: "parser used after a violation")
        }
    }

    private mutating func finishLine(_ kind: Kind, into replies: inout [RESPValue])
        throws(RESPError)
    {
        let text = line
        line = []
        switch kind {
        case .simpleString:
            complete(.simpleString(String(decoding: text, as: UTF8.self)), into: &replies)
        case .error:
            complete(.error(String(decoding: text, as: UTF8.self)), into: &replies)
        case .integer:
            guard let value = Self.integer(text) else {
                throw .protocolViolation(reason: "bad integer")
            }
            complete(.integer(value), into: &replies)
        case .bulkLength:
            guard let length = Self.integer(text), length >= -1 else {
                throw .protocolViolation(reason: "bad bulk string length")
            }
            if length == -1 { return complete(.bulkString(nil), into: &replies) }
            guard length <= limits.maxBulkBytes else {
                throw .protocolViolation(reason: "bulk string over \(limits.maxBulkBytes) bytes")
            }
            // The payload and its CRLF must fit in what is left of the reply's budget.
            guard Int(length) + 2 <= limits.maxReplyBytes - replyBytes else {
                throw .protocolViolation(reason: "reply over \(limits.maxReplyBytes) bytes")
            }
            bulk.reserveCapacity(Int(length))
            state = length == 0 ? .bulkCarriageReturn : .bulk(remaining: Int(length))
        case .arrayCount:
            guard let declared = Self.integer(text), declared >= -1 else {
                throw .protocolViolation(reason: "bad array count")
            }
            if declared == -1 { return complete(.array(nil), into: &replies) }
            guard declared <= limits.maxArrayCount else {
                throw .protocolViolation(reason: "array over \(limits.maxArrayCount) elements")
            }
            // An empty array counts as deep as any other (FuzzRESP's second find, seed
            // regression-empty-array-past-depth).
            guard stack.count < limits.maxDepth else {
                throw .protocolViolation(reason: "arrays nested over \(limits.maxDepth) deep")
            }
            if declared == 0 { return complete(.array([]), into: &replies) }
            stack.append(Frame(remaining: Int(declared), elements: []))
        }
    }

    /// A value is complete: into its array, or out as a reply.
    private mutating func complete(_ value: RESPValue, into replies: inout [RESPValue]) {
        var finished = value
        while !stack.isEmpty {
            stack[stack.count - 1].elements.append(finished)
            stack[stack.count - 1].remaining -= 1
            guard stack[stack.count - 1].remaining == 0 else { return }
            finished = .array(stack.removeLast().elements)
        }
        replies.append(finished)
        replyBytes = 0
    }

    /// Counts `bytes` more of the reply in progress against its budget.
    private mutating func count(_ bytes: Int) throws(RESPError) {
        guard bytes <= limits.maxReplyBytes - replyBytes else {
            throw .protocolViolation(reason: "reply over \(limits.maxReplyBytes) bytes")
        }
        replyBytes += bytes
    }

    /// `-?[0-9]+` as an Int64, or nil (empty, a sign alone, `+`, any other byte, or out
    /// of range).
    static func integer(_ text: [UInt8]) -> Int64? {
        var digits = text[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let digit = Int64(byte - 0x30)
            // Accumulated as a negative number: Int64.min has no positive counterpart.
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        if negative { return value }
        guard value != .min else { return nil }
        return -value
    }
}
