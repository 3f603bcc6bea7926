/// Every size limit the HTTP/1.1 parsers enforce, with its default. One struct so the
/// server and client configure them in one place (shared/docs/HTTP1-RULES.md rule 11,
/// 19, 20). Line limits count the line's CRLF too.
public struct HTTPLimits: Sendable, Hashable {
    /// The request line (or a response's status line), CRLF included. Over it: 414 for a
    /// request (RFC 9112 §3), an invalid status line for a response.
    public var maxRequestLineBytes: Int
    /// One field line, CRLF included. Over it: 431 (RFC 9110 §5.4).
    public var maxHeaderLineBytes: Int
    /// The whole field section after the start line, the final empty line included.
    /// Over it: 431 (RFC 9110 §5.4).
    public var maxHeaderBytes: Int
    /// Number of field lines. Over it: 431.
    public var maxHeaderFields: Int
    /// Declared (Content-Length) or decoded (chunked) body size. Over it: 413, decided
    /// from the head when the length is declared (RFC 9110 §15.5.14).
    public var maxBodyBytes: Int
    /// The extensions of all chunk-size lines of one message, after the sizes. Over it:
    /// 400 (RFC 9112 §7.1.1 lets a recipient limit them). Per message, not per chunk: a
    /// per-chunk cap multiplies by the number of chunks (CVE-2023-39326 class).
    public var maxChunkExtensionBytes: Int
    /// The whole trailer section of a chunked body (per message). Over it: 431
    /// (RFC 9112 §7.1.2).
    public var maxTrailerBytes: Int

    /// Defaults for requests a server reads: request line 8 KiB, field line 8 KiB,
    /// field section 16 KiB, 100 fields, body 64 KiB, chunk extensions 1 KiB and
    /// trailers 4 KiB per message.
    public init(
        maxRequestLineBytes: Int = 8 * 1024,
        maxHeaderLineBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        maxHeaderFields: Int = 100,
        maxBodyBytes: Int = 64 * 1024,
        maxChunkExtensionBytes: Int = 1024,
        maxTrailerBytes: Int = 4 * 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderLineBytes = maxHeaderLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderFields = maxHeaderFields
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkExtensionBytes = maxChunkExtensionBytes
        self.maxTrailerBytes = maxTrailerBytes
    }

    /// Defaults for responses the upstream client reads: the same head limits, a 1 MiB
    /// body (token responses are small; anything bigger is not a token response).
    public static let upstreamResponse = HTTPLimits(maxBodyBytes: 1024 * 1024)
}
