/// The field section of a message head (RFC 9112 §5): the field lines after the start
/// line, up to the empty line that ends the head, checked against the head limits as
/// they are scanned. Requests and responses share it, so a field rule or a limit cannot
/// differ between the two parsers.
struct FieldSection: Sendable {
    /// The fields so far, in order, duplicates kept.
    private(set) var fields: [FieldRange] = []
    /// Where the first field line starts, relative to the head's first byte.
    private var start = 0

    /// Starts the section at `start`, the byte after the start line's CRLF.
    mutating func begin(at start: Int) {
        self.start = start
    }

    /// Back to empty, keeping the field list's storage (no regrowth per message on a
    /// keep-alive connection; a fresh buffer of the same capacity when a returned head
    /// still shares it).
    mutating func reset() {
        fields.removeAll(keepingCapacity: true)
        start = 0
    }

    /// Scans field lines with `scanner`, resuming where the last call stopped.
    /// - Returns: true at the empty line that ends the head (the scanner's `lineStart`
    ///   is then the head's length), false when more bytes are needed.
    mutating func scan(
        _ bytes: UnsafeRawBufferPointer, with scanner: inout HeadLineScanner, limits: HTTPLimits
    ) throws(HTTPParseError) -> Bool {
        let lineLimits = HeadLineScanner.LineLimits(
            maxLineBytes: limits.maxHeaderLineBytes, lineTooLong: .headerLineTooLong,
            blockStart: start, maxBlockBytes: limits.maxHeaderBytes,
            blockTooLarge: .headerTooLarge)
        while let line = try scanner.nextLine(in: bytes, limits: lineLimits) {
            if line.isEmpty { return true }
            let field = try FieldLine.parse(bytes, line, isFirst: fields.isEmpty)
            if fields.capacity == 0 { fields.reserveCapacity(16) }
            fields.append(field)
            // RFC 9110 §5.4: a recipient may refuse a field section that is too large.
            if fields.count > limits.maxHeaderFields { throw .tooManyHeaderFields }
        }
        return false
    }
}
