#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the lines of a message head, one call at a time: the scan resumes where the
/// previous call stopped, so a client that sends one byte per packet costs O(n), not
/// O(n²). Offsets are relative to the head's first byte.
struct HeadLineScanner: Sendable, Hashable {
    /// Where the line being scanned begins.
    private(set) var lineStart = 0
    /// The first byte not yet looked at.
    private(set) var scanIndex = 0

    /// The limits one line is checked against while it is scanned, so an over-long line
    /// fails at the same byte however the input was split.
    struct LineLimits {
        var maxLineBytes: Int
        var lineTooLong: HTTPParseError
        var blockStart: Int
        var maxBlockBytes: Int
        var blockTooLarge: HTTPParseError

        /// A start line (request or status line): only its own length is limited; the
        /// field section's size is counted from the byte after it.
        static func startLine(maxBytes: Int, tooLong: HTTPParseError) -> LineLimits {
            LineLimits(
                maxLineBytes: maxBytes, lineTooLong: tooLong, blockStart: 0,
                maxBlockBytes: Int.max, blockTooLarge: .headerTooLarge)
        }
    }

    /// The next complete line without its CRLF, or nil when more bytes are needed.
    mutating func nextLine(in bytes: UnsafeRawBufferPointer, limits: LineLimits)
        throws(HTTPParseError) -> Range<Int>?
    {
        let end = bytes.count
        // The first offsets the limits forbid: the line may not reach `lineLimit`, the
        // block not `blockLimit`. Bytes before both are searched for the next CR or LF
        // (the C library's `memchr`, vectorised: the first CR, then an LF before it); a
        // limit is enforced at the same byte as a check per byte would
        // (HeadLineScannerTests compares the two on random input).
        let lineLimit = Self.saturatingSum(lineStart, limits.maxLineBytes)
        let blockLimit = Self.saturatingSum(limits.blockStart, limits.maxBlockBytes)
        let stop = min(end, lineLimit, blockLimit)
        var index = scanIndex
        if index < stop, let base = bytes.baseAddress {
            let cr =
                memchr(base + index, Int32(HTTPGrammar.cr), stop - index).map {
                    base.distance(to: UnsafeRawPointer($0))
                } ?? stop
            index =
                memchr(base + index, Int32(HTTPGrammar.lf), cr - index).map {
                    base.distance(to: UnsafeRawPointer($0))
                } ?? cr
        }
        guard index < end else {
            scanIndex = index
            return nil
        }
        try check(index, lineLimit: lineLimit, blockLimit: blockLimit, limits)
        if bytes[index] == HTTPGrammar.lf {
            // Only CRLF ends a line (RFC 9112 §2.2); a lone LF is how requests are
            // smuggled past parsers that accept it.
            throw .bareLF
        }
        // A CR.
        guard index + 1 < end else {
            scanIndex = index
            return nil
        }
        try check(index + 1, lineLimit: lineLimit, blockLimit: blockLimit, limits)
        // A CR not followed by LF is invalid anywhere in a head (RFC 9112 §2.2).
        guard bytes[index + 1] == HTTPGrammar.lf else { throw .bareCR }
        let line = lineStart..<index
        lineStart = index + 2
        scanIndex = index + 2
        return line
    }

    /// The line's limit is checked first, as for every byte.
    @inline(__always)
    private func check(
        _ index: Int, lineLimit: Int, blockLimit: Int, _ limits: LineLimits
    ) throws(HTTPParseError) {
        if index >= lineLimit { throw limits.lineTooLong }
        if index >= blockLimit { throw limits.blockTooLarge }
    }

    @inline(__always)
    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
