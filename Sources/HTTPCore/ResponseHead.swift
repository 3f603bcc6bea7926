/// A response head read by the client, as values, with the framing of its body decided
/// (RFC 9112 §6.3).
public struct ResponseHead: Sendable, Hashable {
    public var version: HTTPVersion
    public var status: HTTPStatus
    /// Every field in order, duplicates kept, values trimmed.
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    /// Whether the connection may carry another request (RFC 9112 §9.3); false for a body
    /// delimited by close.
    public var keepAlive: Bool
    /// Bytes the head took; the body starts here.
    public var byteCount: Int

    public init(
        version: HTTPVersion, status: HTTPStatus, headers: HTTPHeaders, framing: BodyFraming,
        keepAlive: Bool, byteCount: Int
    ) {
        self.version = version
        self.status = status
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.byteCount = byteCount
    }

    /// A 1xx interim response (RFC 9110 §15.2): the final response follows it on the same
    /// connection, so the client parses another head after it.
    public var isInformational: Bool { status.code < 200 }
}
