/// A parsed request head as byte ranges into the caller's buffer (the picohttpparser
/// shape: nothing copied), plus what the framing rules decided. Ranges are relative to
/// the head's first byte, i.e. to the bytes handed to `RequestHeadParser.parse`.
public struct RequestHeadLayout: Sendable, Hashable {
    public var method: Range<Int>
    public var target: Range<Int>
    public var version: HTTPVersion
    public var fields: [FieldRange]
    /// Bytes the head took, the final empty line included: the body (or the next
    /// pipelined request) starts here.
    public var byteCount: Int
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
    public var keepAlive: Bool
    /// `Expect: 100-continue` in an HTTP/1.1 request (RFC 9110 §10.1.1).
    public var expectContinue: Bool
}
