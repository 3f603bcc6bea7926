import HTTPCore
import TLS

/// Every limit and deadline of the HTTP server, with its default, in one place
/// (shared/docs/ARCHITECTURE.md "Limits"). Sizes in bytes, times in seconds.
public struct ServerConfiguration: Sendable {
    /// Sizes the request parser enforces: request line 8 KiB (414 over it), field line
    /// 8 KiB and field section 16 KiB (431), 100 fields (431), body 64 KiB (413, decided
    /// from Content-Length before any body byte is read, RFC 9110 §15.5.14), chunk
    /// extensions and trailers.
    package var limits = HTTPLimits()

    /// From the first byte of a request head (or from accept, for a new connection's
    /// first request) to its end. Absolute: a client trickling bytes cannot extend it.
    package var headerTimeoutSeconds = 10.0
    /// From the end of the head to the end of the body.
    package var bodyTimeoutSeconds = 10.0
    /// A keep-alive connection with no request in progress is closed after this.
    package var idleTimeoutSeconds = 30.0
    /// From handing a response to the socket to the kernel taking its last byte; a
    /// client that does not read is disconnected after it.
    package var writeTimeoutSeconds = 30.0
    /// After an error response: how long the read side is drained before the close, so
    /// unread input does not turn the close into an RST that destroys the response
    /// (RFC 9112 §9.6).
    package var lingerSeconds = 2.0

    /// Requests served on one connection before it is closed (`Connection: close`).
    package var maxRequestsPerConnection = 1000
    /// Open connections; at the cap the listener stops accepting until one closes.
    package var maxConnections = 10_000
    /// Request bytes waiting on the network, over all connections: heads as buffered
    /// (with the ciphertext of an incomplete TLS record), bodies as announced by
    /// Content-Length or, chunked, as decoded. A connection that would pass it is
    /// answered 503 and closed (CONTRACT §15). 32 MiB: 512 stalled bodies of the 64 KiB maximum, well
    /// inside a 256 MB container.
    package var maxBodyBytesInFlight = 32 * 1024 * 1024
    /// Connections one client may hold at once; more are closed at accept. 0: no cap.
    /// Behind a proxy every client has the proxy's address: raise it there. An IPv6
    /// client is its `/clientIPv6PrefixLength` network, and the enclosing /48 may hold 16
    /// times as many (CONTRACT §15).
    package var maxConnectionsPerClient = 2_500
    /// The prefix that makes one IPv6 client for `maxConnectionsPerClient` (RFC 6177: a
    /// site gets a /48, a subnet a /64).
    package var clientIPv6PrefixLength = 64
    /// Output waiting for a client that does not read (a response, TLS records the
    /// server must answer with), past which the connection is closed (CONTRACT §15).
    package var maxPendingOutputBytes = 256 * 1024
    /// How long accepting pauses at the cap or on EMFILE/ENFILE before it is retried.
    package var acceptRetryDelaySeconds = 0.1
    /// Event loops; nil means one per online core.
    package var loopCount: Int?
    /// Builds the answers the server gives itself (404, 405, 408, 4xx framing errors,
    /// 500 for a throwing handler); the default is plain text.
    package var errorResponder: ErrorResponder = ServerError.plainResponder
    /// Told about parse errors, deadlines, unrouted requests and accept pauses (for
    /// metrics); nil: nobody listens.
    package var observer: (any ServerObserver)?
    /// The certificate and key of the main listener (`start`), which then speaks HTTPS
    /// (CONTRACT §10); nil: plain HTTP. Other listeners (`addListener`, e.g. the admin
    /// port) stay plain unless given their own.
    package var tls: TLSServerContextStore?

    public init() {}
}

extension ServerConfiguration {
    /// The answer to `error`: the responder's, with `Allow` on a 405 (RFC 9110 §15.5.6:
    /// a 405 MUST carry it, whoever shapes the body).
    package func errorResponse(_ error: ServerError, for request: HTTPRequest?) -> HTTPResponse {
        var response = errorResponder(error, request)
        response.status = error.status
        if case .methodNotAllowed(let allow) = error {
            response.headers.replaceOrAdd(
                name: "Allow", value: allow.map(\.rawValue).joined(separator: ", "))
        }
        return response
    }
}
