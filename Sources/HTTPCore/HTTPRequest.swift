/// A complete request as a handler sees it: the head, decoded into values, and the whole
/// body (bodies are small and bounded here: see the server's `maxBodyBytes`).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target as sent (origin-form `/path?query`, or absolute-form).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The TCP peer's address (`127.0.0.1`, `::1`), set by the server; nil in tests that
    /// build requests by hand.
    public var remoteAddress: String?

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], remoteAddress: String? = nil
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path part of the target, without the query. For absolute-form targets
    /// (RFC 9112 §3.2.2) the scheme and authority are skipped.
    /// The delimiters are ASCII, so they are found among the target's UTF-8 bytes, not its
    /// characters (a scan of `Character`s costs several times more per byte).
    public var path: Substring {
        var rest = Substring(target)
        if rest.utf8.first != UInt8(ascii: "/") {
            // absolute-form: scheme "://" authority path-abempty
            let afterScheme =
                rest.utf8.firstIndex(of: UInt8(ascii: ":")).map { rest[$0...].dropFirst(3) }
                ?? rest
            rest =
                afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")).map { afterScheme[$0...] }
                ?? "/"
        }
        if let q = rest.utf8.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<q] }
        return rest
    }

    /// The query part of the target, without the `?`, or nil when there is none.
    public var query: Substring? {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return target[target.utf8.index(after: q)...]
    }
}
