/// A request head as values: what `RequestHeadLayout` points at, copied out of the
/// buffer once the head is known to be valid.
public struct RequestHead: Sendable, Hashable {
    public var method: HTTPMethod
    /// The request target as sent (origin-form or absolute-form, RFC 9112 §3.2).
    public var target: String
    public var version: HTTPVersion
    /// Every field in order, duplicates kept, values trimmed; decoded when read. Field
    /// values that are not UTF-8 (obs-text) have those bytes replaced by U+FFFD.
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    public var keepAlive: Bool
    public var expectContinue: Bool
    /// Bytes the head took in the buffer; the body or the next request starts there.
    public var byteCount: Int

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders,
        framing: BodyFraming, keepAlive: Bool, expectContinue: Bool, byteCount: Int
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectContinue = expectContinue
        self.byteCount = byteCount
    }

    /// Copies the head out of `bytes`, which must be the buffer the layout was parsed
    /// from (starting at the head's first byte).
    public init(_ layout: RequestHeadLayout, in bytes: UnsafeRawBufferPointer) {
        self.init(
            method: HTTPMethod(rawValue: String(decoding: bytes[layout.method], as: UTF8.self)),
            target: String(decoding: bytes[layout.target], as: UTF8.self),
            version: layout.version,
            // Fields stay ranges into one copy of the head, decoded when read.
            headers: HTTPHeaders(
                received: Array(bytes[0..<layout.byteCount]), ranges: layout.fields),
            framing: layout.framing,
            keepAlive: layout.keepAlive,
            expectContinue: layout.expectContinue,
            byteCount: layout.byteCount)
    }

    /// An `HTTPRequest` for a handler, with this head and the given body.
    public func request(body: [UInt8], remoteAddress: String? = nil) -> HTTPRequest {
        HTTPRequest(
            method: method, target: target, version: version, headers: headers, body: body,
            remoteAddress: remoteAddress)
    }
}
