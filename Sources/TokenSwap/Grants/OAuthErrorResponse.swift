import HTTPCore

/// The one builder of `{"error":…,"error_description":…}` answers (RFC 6749 §5.2): token
/// endpoint errors, the server's own errors, the sandbox's provider errors, CORS and
/// readiness refusals all come through here, with the no-store headers of a token
/// response unless the caller says otherwise.
public enum OAuthErrorResponse {
    public static func body(code: String, description: String) -> [UInt8] {
        JSONValue.object([
            .init("error", .string(code)), .init("error_description", .string(description)),
        ]).serialized
    }

    public static func make(
        _ status: HTTPStatus, code: String, description: String,
        headers: HTTPHeaders = TokenResponseHeaders.base
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: headers, body: body(code: code, description: description))
    }
}
