/// An incremental, strict HTTP/1.1 response-head parser for the upstream client: the
/// status line (RFC 9112 §4), field lines as for requests (§5), and the body framing of
/// §6.3. Same contract as `RequestHeadParser`: pass the buffer from the head's first byte
/// as bytes arrive; nil means "need more".
public struct ResponseHeadParser: Sendable {
    public let limits: HTTPLimits

    private var scanner = HeadLineScanner()
    private var statusLineDone = false
    private var version = HTTPVersion.http1_1
    private var statusCode = 0
    private var reason = 0..<0
    private var section = FieldSection()

    public init(limits: HTTPLimits = .upstreamResponse) {
        self.limits = limits
    }

    /// Back to the start state, keeping the field list's storage (no regrowth per
    /// message on a keep-alive connection; a fresh buffer of the same capacity when the
    /// layout just returned still shares it).
    public mutating func reset() {
        var kept = FieldSection()
        swap(&kept, &section)
        kept.reset()
        self = ResponseHeadParser(limits: limits)
        section = kept
    }

    /// Parses as far as `bytes` go; `requestMethod` is the method of the request this
    /// answers (a response to HEAD has no body, RFC 9112 §6.3 rule 1).
    /// - Returns: the complete head, or nil when more bytes are needed. The parser resets
    ///   itself after a complete head (a 1xx is followed by another head).
    public mutating func parse(_ bytes: UnsafeRawBufferPointer, requestMethod: HTTPMethod)
        throws(HTTPParseError) -> ResponseHead?
    {
        while true {
            if !statusLineDone {
                let lineLimits = HeadLineScanner.LineLimits.startLine(
                    maxBytes: limits.maxRequestLineBytes, tooLong: .statusLineTooLong)
                guard let line = try scanner.nextLine(in: bytes, limits: lineLimits) else {
                    return nil
                }
                try parseStatusLine(bytes, line)
                statusLineDone = true
                section.begin(at: scanner.lineStart)
                continue
            }
            guard try section.scan(bytes, with: &scanner, limits: limits) else { return nil }
            let head = try finish(bytes, requestMethod: requestMethod)
            reset()
            return head
        }
    }

    /// status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112 §4). The
    /// second SP is required; the reason may be empty and is otherwise HTAB / SP / VCHAR /
    /// obs-text.
    private mutating func parseStatusLine(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>)
        throws(HTTPParseError)
    {
        var versionEnd = line.lowerBound
        while versionEnd < line.upperBound, bytes[versionEnd] != HTTPGrammar.space {
            versionEnd += 1
        }
        version = try HTTPVersion.parse(bytes, line.lowerBound..<versionEnd)
        // The version took exactly 8 bytes; SP 3DIGIT SP must follow.
        let start = line.lowerBound
        guard line.upperBound - start >= 13, bytes[start + 12] == HTTPGrammar.space else {
            throw .invalidStatusLine
        }
        var code = 0
        for index in (start + 9)..<(start + 12) {
            let byte = bytes[index]
            guard HTTPGrammar.isDigit(byte) else { throw .invalidStatusLine }
            code = code * 10 + Int(byte - 0x30)
        }
        // RFC 9110 §15: status codes are 100...599.
        guard (100...599).contains(code) else { throw .invalidStatusLine }
        statusCode = code
        reason = (start + 13)..<line.upperBound
        for index in reason where !HTTPGrammar.isFieldValue(bytes[index]) {
            throw .invalidStatusLine
        }
    }

    private func finish(_ bytes: UnsafeRawBufferPointer, requestMethod: HTTPMethod)
        throws(HTTPParseError) -> ResponseHead
    {
        let facts = FieldSemantics(bytes, section.fields)
        try facts.checkContentLength()

        // RFC 9112 §6.3 rule 1: these responses end at the empty line whatever their
        // fields say.
        let hasNoBody =
            requestMethod == .head || statusCode < 200 || statusCode == 204
            || statusCode == 304
        var framing = BodyFraming.untilClose
        if hasNoBody {
            framing = .none
        } else if facts.hasTransferEncoding {
            // RFC 9112 §6.3 rule 3: TE with CL "ought to be handled as an error"; strict.
            if facts.contentLengthCount > 0 { throw .transferEncodingWithContentLength }
            framing = try facts.transferCodingFraming()
        } else if let length = facts.contentLength {
            framing = length == 0 ? .none : .contentLength(length)
            if length > limits.maxBodyBytes { throw .contentTooLarge }
        }

        let isHTTP11 = version.isAtLeastHTTP11
        let keepAlive =
            framing != .untilClose && !facts.connectionClose
            && (isHTTP11 || facts.connectionKeepAlive)

        // Fields stay ranges into one copy of the head, decoded when read.
        let headers = HTTPHeaders(
            received: Array(bytes[0..<scanner.lineStart]), ranges: section.fields)
        return ResponseHead(
            version: version,
            status: HTTPStatus(
                code: statusCode, reasonPhrase: String(decoding: bytes[reason], as: UTF8.self)),
            headers: headers, framing: framing, keepAlive: keepAlive,
            byteCount: scanner.lineStart)
    }
}
