import HTTPCore

/// Every answer the server itself (not a handler) gives, with the status it maps to, a
/// machine-readable code and a fixed description (never request input). The bytes of
/// the answer come from the configuration's `ErrorResponder`.
public enum ServerError: Error, Sendable, Equatable {
    case notFound
    case methodNotAllowed(allow: [HTTPMethod])
    /// The request could not be framed or was over a limit; `status` from the parser.
    case badRequest(status: HTTPStatus)
    /// The head (or body) did not arrive before its deadline (RFC 9110 §15.5.9).
    case requestTimeout
    /// A handler threw; the cause stays in the server.
    case handlerFailed
    /// The server is over a capacity limit (body bytes in flight): retry later.
    case overloaded

    package var status: HTTPStatus {
        switch self {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .badRequest(let status): status
        case .requestTimeout: .requestTimeout
        case .handlerFailed: .internalServerError
        case .overloaded: .serviceUnavailable
        }
    }

    package var code: String {
        switch self {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .badRequest: "invalid_request"
        case .requestTimeout: "invalid_request"
        case .handlerFailed: "server_error"
        case .overloaded: "temporarily_unavailable"
        }
    }

    package var errorDescription: String {
        switch self {
        case .notFound: "No resource at this path."
        case .methodNotAllowed: "This method is not allowed on this path."
        case .badRequest(let status): "The request was refused: \(status.reasonPhrase)."
        case .requestTimeout: "The request did not arrive in time."
        case .handlerFailed: "The server failed to handle the request."
        case .overloaded: "The server is busy; retry later."
        }
    }

    /// The default answer when the product supplies no `ErrorResponder`: the reason in
    /// plain text. The product shapes its own (CONTRACT §2's JSON error bodies).
    package static let plainResponder: ErrorResponder = { error, _ in
        HTTPResponse(
            status: error.status,
            headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
            body: Array(error.errorDescription.utf8))
    }
}

/// Builds the response for an error the server answers itself (framing, limits,
/// deadlines, unrouted paths, a failed handler): the product decides the body and its
/// headers. `request` is the request when one was read whole (404, 405, 500), nil for
/// errors found while reading it. The server adds `Allow` to a 405 (RFC 9110 §15.5.6)
/// and the framing headers to every answer.
public typealias ErrorResponder = @Sendable (ServerError, HTTPRequest?) -> HTTPResponse
