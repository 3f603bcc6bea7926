import HTTPCore

/// A request to an upstream: where it goes (origin + origin-form target) and what it
/// carries. The client adds `Host`, `Content-Length` and framing; callers set the rest.
public struct HTTPClientRequest: Sendable {
    package var method: HTTPMethod
    package var origin: Origin
    /// The origin-form target, `/path?query` (RFC 9112 §3.2.1).
    package var target: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(
        method: HTTPMethod, origin: Origin, target: String,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.origin = origin
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// A request to an absolute `http://` or `https://` URL.
    package init(
        method: HTTPMethod, url: String, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) throws(HTTPClientError) {
        let parsed = try UpstreamURL(url)
        self.init(
            method: method, origin: parsed.origin, target: parsed.target, headers: headers,
            body: body)
    }
}
