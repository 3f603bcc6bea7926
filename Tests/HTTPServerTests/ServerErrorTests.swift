import HTTPCore
import HTTPServer
import Testing

/// The server's own answers: each error's status, and the configured responder's body
/// (the default is plain text; the product injects its JSON shape, tested in
/// TokenSwapTests' `ErrorResponderTests`).
@Suite struct ServerErrorTests {
    @Test(arguments: [
        (ServerError.notFound, 404, "not_found"),
        (.methodNotAllowed(allow: [.get]), 405, "method_not_allowed"),
        (.badRequest(status: .requestHeaderFieldsTooLarge), 431, "invalid_request"),
        (.requestTimeout, 408, "invalid_request"),
        (.handlerFailed, 500, "server_error"),
    ])
    func theDefaultAnswerIsPlainTextWithTheStatus(error: ServerError, status: Int, code: String) {
        let response = ServerConfiguration().errorResponse(error, for: nil)
        #expect(response.status.code == status)
        #expect(error.code == code)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == error.errorDescription)
    }

    @Test func a405CarriesAllowWhateverTheResponderBuilds() {
        var configuration = ServerConfiguration()
        configuration.errorResponder = { _, _ in HTTPResponse(status: .ok) }
        let response = configuration.errorResponse(.methodNotAllowed(allow: [.get, .head]), for: nil)
        #expect(response.status.code == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }
}
