import HTTPCore

/// Every answer the server itself (not a handler) gives, with the status it maps to.
/// Bodies follow RFC 6749 §5.2 (`{"error":…,"error_description":…}`) as
/// shared/docs/CONTRACT.md requires, and never echo request input.
public enum ServerError: Error, Sendable, Equatable {
    case notFound
    case methodNotAllowed(allow: [HTTPMethod])
    /// The request could not be framed or was over a limit; `status` from the parser.
    case badRequest(status: HTTPStatus)
    /// The head (or body) did not arrive before its deadline (RFC 9110 §15.5.9).
    case requestTimeout
    /// A handler threw; the cause stays in the server.
    case handlerFailed

    public var status: HTTPStatus {
        switch self {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .badRequest(let status): status
        case .requestTimeout: .requestTimeout
        case .handlerFailed: .internalServerError
        }
    }

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .badRequest: "invalid_request"
        case .requestTimeout: "invalid_request"
        case .handlerFailed: "server_error"
        }
    }

    public var errorDescription: String {
        switch self {
        case .notFound: "No resource at this path."
        case .methodNotAllowed: "This method is not allowed on this path."
        case .badRequest(let status): "The request was refused: \(status.reasonPhrase)."
        case .requestTimeout: "The request did not arrive in time."
        case .handlerFailed: "The server failed to handle the request."
        }
    }

    public var response: HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if case .methodNotAllowed(let allow) = self {
            // RFC 9110 §15.5.6: a 405 MUST carry Allow.
            headers.add(name: "Allow", value: allow.map(\.rawValue).joined(separator: ", "))
        }
        let body = #"{"error":"\#(code)","error_description":"\#(errorDescription)"}"#
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }
}
