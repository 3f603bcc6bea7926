/// An incremental decoder for the chunked transfer coding (RFC 9112 §7.1):
///
///     chunked-body = *chunk last-chunk trailer-section CRLF
///     chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
///
/// Feed it bytes as they arrive; it consumes them (never looking at one twice), appends
/// the data to `body`, and says how many it took. It stops right after the final CRLF,
/// so bytes of a pipelined next message are left alone. Strict: CRLF only, hex sizes
/// checked for overflow, extensions validated and capped, trailers validated, capped and
/// discarded, and the decoded total capped by `limits.maxBodyBytes` (413).
///
/// Extension and trailer bytes are capped per message, not per chunk: with a per-chunk
/// cap, a 64 KiB body of one-byte chunks each carrying 1 KiB of extensions made the
/// server read about 67 MB (and a 1 MiB provider response about 1 GB) for one message
/// (Go's CVE-2023-39326 is the same class).
public struct ChunkedDecoder: Sendable {
    public let limits: HTTPLimits
    /// The last chunk and the trailer section have been read.
    public private(set) var isComplete = false
    /// Data bytes decoded so far.
    public private(set) var decodedByteCount = 0

    var state = State.size
    var size = 0
    var sizeDigits = 0
    var remaining = 0
    /// Over every chunk-size line of this message (never reset between chunks).
    var extensionBytes = 0
    var trailerLine: [UInt8] = []
    var trailerBytes = 0
    var trailerFields = 0

    enum State: Sendable {
        case size
        /// BWS after the size, allowed only before a `;` (RFC 9112 §7.1.1).
        case sizeWhitespace
        case chunkExtension(ChunkExtensionState)
        case sizeLF
        case data
        case dataCR
        case dataLF
        case trailer
        case trailerLF
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Decodes from `bytes`, appending chunk data to `body`.
    /// - Returns: the number of bytes consumed: all of them, unless the body ended first.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer, into body: inout [UInt8])
        throws(HTTPParseError) -> Int
    {
        var index = 0
        let end = bytes.count
        while index < end, !isComplete {
            if case .data = state {
                let count = min(remaining, end - index)
                body.append(
                    contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                remaining -= count
                decodedByteCount += count
                index += count
                if remaining == 0 { state = .dataCR }
                continue
            }
            try step(bytes[index])
            index += 1
        }
        return index
    }

    /// One byte of everything but chunk data.
    private mutating func step(_ byte: UInt8) throws(HTTPParseError) {
        switch state {
        case .size:
            if let digit = HTTPGrammar.hexValue(byte) {
                // Overflow-safe: refuse before `size * 16 + digit` could wrap.
                guard size <= (Int.max - 15) / 16, sizeDigits < 32 else {
                    throw .invalidChunkSize
                }
                size = size * 16 + digit
                sizeDigits += 1
                return
            }
            // chunk-size = 1*HEXDIG; anything else (`0_2e`, `0x10`, `-1`) is refused.
            guard sizeDigits > 0 else { throw .invalidChunkSize }
            switch byte {
            case HTTPGrammar.cr: state = .sizeLF
            case HTTPGrammar.lf: throw .bareLF
            case HTTPGrammar.semicolon: try enterExtension()
            case HTTPGrammar.space, HTTPGrammar.tab:
                try countExtensionByte()
                state = .sizeWhitespace
            default: throw .invalidChunkSize
            }
        case .sizeWhitespace:
            try countExtensionByte()
            switch byte {
            case HTTPGrammar.space, HTTPGrammar.tab: break
            case HTTPGrammar.semicolon: state = .chunkExtension(.beforeName)
            default: throw .invalidChunkSize
            }
        case .chunkExtension(let extensionState):
            switch byte {
            case HTTPGrammar.cr:
                guard extensionState.mayEnd else { throw .invalidChunkExtension }
                state = .sizeLF
            case HTTPGrammar.lf:
                throw .bareLF
            default:
                try countExtensionByte()
                state = .chunkExtension(try extensionState.next(byte))
            }
        case .sizeLF:
            // A CR not followed by LF (`2\r\r;a`) is refused, never read as a line end.
            guard byte == HTTPGrammar.lf else { throw .bareCR }
            try finishSizeLine()
        case .data:
            break  // handled in bulk by `decode`
        case .dataCR:
            // RFC 9112 §7.1: chunk-data is followed by exactly CRLF.
            if byte == HTTPGrammar.lf { throw .bareLF }
            guard byte == HTTPGrammar.cr else { throw .missingChunkDataCRLF }
            state = .dataLF
        case .dataLF:
            guard byte == HTTPGrammar.lf else { throw .bareCR }
            resetChunk()
        case .trailer:
            try countTrailerByte()
            switch byte {
            case HTTPGrammar.cr: state = .trailerLF
            case HTTPGrammar.lf: throw .bareLF
            default: trailerLine.append(byte)
            }
        case .trailerLF:
            try countTrailerByte()
            guard byte == HTTPGrammar.lf else { throw .bareCR }
            try finishTrailerLine()
        }
    }

    private mutating func enterExtension() throws(HTTPParseError) {
        try countExtensionByte()
        state = .chunkExtension(.beforeName)
    }

    /// RFC 9112 §7.1.1: a recipient may limit extensions; we allow a small amount per
    /// message.
    private mutating func countExtensionByte() throws(HTTPParseError) {
        extensionBytes += 1
        if extensionBytes > limits.maxChunkExtensionBytes { throw .chunkExtensionTooLong }
    }

    private mutating func countTrailerByte() throws(HTTPParseError) {
        trailerBytes += 1
        if trailerBytes > limits.maxTrailerBytes { throw .trailersTooLarge }
    }

    private mutating func finishSizeLine() throws(HTTPParseError) {
        if size == 0 {
            state = .trailer
            return
        }
        // RFC 9110 §15.5.14: the decoded total is capped like a declared length.
        guard size <= limits.maxBodyBytes - decodedByteCount else { throw .contentTooLarge }
        remaining = size
        state = .data
    }

    private mutating func resetChunk() {
        size = 0
        sizeDigits = 0
        state = .size
    }

    /// RFC 9112 §7.1.2: trailer fields are field lines; they are checked like header
    /// fields and then dropped (nothing here needs them).
    private mutating func finishTrailerLine() throws(HTTPParseError) {
        defer { trailerLine.removeAll(keepingCapacity: true) }
        if trailerLine.isEmpty {
            isComplete = true
            return
        }
        let checked: Result<FieldRange, HTTPParseError> = trailerLine.withUnsafeBytes { line in
            do throws(HTTPParseError) {
                return .success(try FieldLine.parse(line, 0..<line.count, isFirst: false))
            } catch {
                return .failure(error)
            }
        }
        _ = try checked.get()
        trailerFields += 1
        if trailerFields > limits.maxHeaderFields { throw .trailersTooLarge }
        state = .trailer
    }
}
