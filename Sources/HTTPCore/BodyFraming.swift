/// How a message's body is delimited (RFC 9112 §6.3). Decided from the head alone.
public enum BodyFraming: Sendable, Hashable {
    /// No body: a request with neither Content-Length nor Transfer-Encoding (§6.3 rule
    /// 7), a response to HEAD, or a 1xx/204/304 response (§6.3 rule 1).
    case none
    /// Exactly this many bytes follow the head (§6.3 rule 6).
    case contentLength(Int)
    /// A chunked body follows; decode it with `ChunkedDecoder` (§7.1).
    case chunked
    /// Responses only: the body is everything until the server closes (§6.3 rule 8).
    /// Such a connection cannot be reused.
    case untilClose
}
