/// An incremental, strict HTTP/1.1 request-head parser (RFC 9112 §2–§7, the rules of
/// shared/docs/HTTP1-RULES.md). Hand it the buffer from the head's first byte each time
/// more bytes arrive; it resumes where it stopped and answers nil ("need more"), the
/// head, or an `HTTPParseError` naming the rule broken and the status to answer.
///
/// The caller keeps the bytes it already passed in place (it may append, or move the
/// whole head to a new buffer position, as offsets are relative to the head's start).
/// After a complete head the parser resets itself for the next one; after an error,
/// the connection must close (the message boundary is lost), or call `reset()`.
public struct RequestHeadParser: Sendable {
    public let limits: HTTPLimits

    private var scanner = HeadLineScanner()
    private var phase = Phase.requestLine
    private var skippedEmptyLine = false
    private var method = 0..<0
    private var target = 0..<0
    private var version = HTTPVersion.http1_1
    private var section = FieldSection()

    private enum Phase { case requestLine, fields }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Back to the start state, keeping the field list's storage (no regrowth per
    /// message on a keep-alive connection; a fresh buffer of the same capacity when the
    /// layout just returned still shares it).
    public mutating func reset() {
        var kept = FieldSection()
        swap(&kept, &section)
        kept.reset()
        self = RequestHeadParser(limits: limits)
        section = kept
    }

    /// Parses as far as `bytes` go. `bytes` starts at the head's first byte and holds at
    /// least everything passed before.
    /// - Returns: the head as byte ranges into `bytes`, or nil when more bytes are needed.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError)
        -> RequestHeadLayout?
    {
        while true {
            switch phase {
            case .requestLine:
                let lineLimits = HeadLineScanner.LineLimits.startLine(
                    maxBytes: limits.maxRequestLineBytes, tooLong: .requestLineTooLong)
                guard let line = try scanner.nextLine(in: bytes, limits: lineLimits) else {
                    return nil
                }
                if line.isEmpty {
                    // RFC 9112 §2.2: a server ought to ignore at least one empty line
                    // before the request line; we ignore exactly one.
                    guard !skippedEmptyLine else { throw .tooManyLeadingEmptyLines }
                    skippedEmptyLine = true
                    continue
                }
                try parseRequestLine(bytes, line)
                section.begin(at: scanner.lineStart)
                phase = .fields
            case .fields:
                guard try section.scan(bytes, with: &scanner, limits: limits) else {
                    return nil
                }
                let layout = try finish(bytes, byteCount: scanner.lineStart)
                reset()
                return layout
            }
        }
    }

    /// request-line = method SP request-target SP HTTP-version (RFC 9112 §3), single
    /// spaces only: other whitespace or extra spaces are 400 (§3).
    private mutating func parseRequestLine(_ bytes: UnsafeRawBufferPointer, _ line: Range<Int>)
        throws(HTTPParseError)
    {
        var index = line.lowerBound
        while index < line.upperBound, bytes[index] != HTTPGrammar.space {
            // RFC 9110 §9.1: the method is a token. Unknown tokens are the router's
            // business (405/501), not the parser's.
            guard HTTPGrammar.isToken(bytes[index]) else { throw .invalidMethod }
            index += 1
        }
        guard index > line.lowerBound, index < line.upperBound else {
            throw .invalidRequestLine
        }
        method = line.lowerBound..<index

        let targetStart = index + 1
        index = targetStart
        while index < line.upperBound, bytes[index] != HTTPGrammar.space {
            // RFC 9112 §3.2: no whitespace or controls inside the target.
            guard HTTPGrammar.isVisible(bytes[index]) else { throw .invalidTarget }
            index += 1
        }
        guard index > targetStart, index < line.upperBound else { throw .invalidRequestLine }
        target = targetStart..<index
        try Self.checkTargetForm(bytes, target)

        let versionRange = (index + 1)..<line.upperBound
        if versionRange.contains(where: { bytes[$0] == HTTPGrammar.space }) {
            throw .invalidRequestLine
        }
        version = try HTTPVersion.parse(bytes, versionRange)
    }

    /// RFC 9112 §3.2: origin-form (`/path[?query]`) or absolute-form, strictly
    /// `http(s)://authority path-abempty [?query]` (§3.2.2, RFC 9110 §4.2). Authority-form
    /// (CONNECT), asterisk-form (OPTIONS *) and every other scheme are not served here.
    /// A fragment is never part of a request-target (RFC 9112 §3.2), in any form.
    ///
    /// Lenient absolute-form parsing let `GET http://a?b/healthz` and `GET http://a#/metrics`
    /// route as `/healthz` and `/metrics`, and `POST x:/v1/swap` as `/v1/swap`: what a
    /// front proxy checks and what this server runs must be the same path, so anything
    /// that is not plainly a path after an authority is a 400.
    private static func checkTargetForm(_ bytes: UnsafeRawBufferPointer, _ target: Range<Int>)
        throws(HTTPParseError)
    {
        if target.contains(where: { bytes[$0] == HTTPGrammar.hash }) { throw .invalidTarget }
        if bytes[target.lowerBound] == HTTPGrammar.slash { return }
        let authorityStart = try Self.schemeEnd(bytes, target)
        var index = authorityStart
        while index < target.upperBound, bytes[index] != HTTPGrammar.slash {
            // RFC 9110 §4.2.4: no userinfo in an http(s) URI; `?` right after the
            // authority (an empty path with a query) is refused with the rest.
            guard HTTPGrammar.isAuthority(bytes[index]) else { throw .invalidTarget }
            if bytes[index] == HTTPGrammar.percent {
                guard index + 2 < target.upperBound,
                    HTTPGrammar.hexValue(bytes[index + 1]) != nil,
                    HTTPGrammar.hexValue(bytes[index + 2]) != nil
                else { throw .invalidTarget }
                index += 2
            }
            index += 1
        }
        // RFC 9110 §4.2.1: an http(s) URI with an empty host is invalid.
        guard index > authorityStart else { throw .invalidTarget }
    }

    /// Where the authority starts after a case-insensitive `http://` or `https://`.
    private static func schemeEnd(_ bytes: UnsafeRawBufferPointer, _ target: Range<Int>)
        throws(HTTPParseError) -> Int
    {
        for (scheme, length) in [("http://" as StaticString, 7), ("https://", 8)]
        where target.count > length {
            let prefix = target.lowerBound..<(target.lowerBound + length)
            if HTTPGrammar.equalsLowercase(bytes, prefix, scheme) { return prefix.upperBound }
        }
        throw .invalidTarget
    }

    /// The head-wide rules, judged in one fixed order so the same head always gets the
    /// same answer.
    private func finish(_ bytes: UnsafeRawBufferPointer, byteCount: Int)
        throws(HTTPParseError) -> RequestHeadLayout
    {
        let facts = FieldSemantics(bytes, section.fields)
        let isHTTP11 = version.isAtLeastHTTP11

        // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host,
        // or with more than one Host, or with an invalid one.
        if facts.hostCount > 1 { throw .duplicateHost }
        if isHTTP11, facts.hostCount == 0 { throw .missingHost }
        if let host = facts.hostValue, !FieldSemantics.isValidHost(bytes, host) {
            throw .invalidHost
        }

        try facts.checkContentLength()

        var framing = BodyFraming.none
        if facts.hasTransferEncoding {
            // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 is a framing fault; the
            // request must be refused and the connection closed.
            if !isHTTP11 { throw .transferEncodingInHTTP10 }
            // RFC 9112 §6.1/§6.3: TE with CL is a smuggling attempt; refuse, then close.
            if facts.contentLengthCount > 0 { throw .transferEncodingWithContentLength }
            framing = try facts.transferCodingFraming()
        } else if let length = facts.contentLength {
            framing = length == 0 ? .none : .contentLength(length)
        }

        // RFC 9110 §10.1.1: 417 for an expectation we cannot meet. 100-continue in an
        // HTTP/1.0 request must be ignored.
        if facts.unknownExpectation { throw .unknownExpectation }

        // RFC 9110 §15.5.14: refuse a declared length over the limit before reading it.
        if case .contentLength(let length) = framing, length > limits.maxBodyBytes {
            throw .contentTooLarge
        }

        // RFC 9112 §9.3: HTTP/1.1 persists unless `close`; HTTP/1.0 only with keep-alive.
        let keepAlive =
            !facts.connectionClose && (isHTTP11 || facts.connectionKeepAlive)

        return RequestHeadLayout(
            method: method, target: target, version: version, fields: section.fields,
            byteCount: byteCount, framing: framing, keepAlive: keepAlive,
            expectContinue: isHTTP11 && facts.expectContinue)
    }
}
