import Foundation
import HTTPCore
import HTTPServer
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// The server's own answers as the service shapes them (CONTRACT §2): RFC 6749 §5.2
/// JSON bodies, and the request id of a request that was read.
@Suite struct ErrorResponderTests {
    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.errorResponder = RequestPipeline(logger: LogCapture().logger).errorResponder
        return configuration
    }

    @Test(arguments: [
        (ServerError.notFound, 404, "not_found"),
        (.methodNotAllowed(allow: [.get]), 405, "method_not_allowed"),
        (.badRequest(status: .requestHeaderFieldsTooLarge), 431, "invalid_request"),
        (.requestTimeout, 408, "invalid_request"),
        (.handlerFailed, 500, "server_error"),
    ])
    func bodiesAreOAuthStyleJSON(error: ServerError, status: Int, code: String) throws {
        let response = Self.configuration().errorResponse(error, for: nil)
        #expect(response.status.code == status)
        #expect(response.headers["Content-Type"] == "application/json")
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        let json = try #require(object as? [String: String])
        #expect(json["error"] == code)
        #expect(json["error_description"]?.isEmpty == false)
        #expect(json.count == 2)
    }

    @Test func aReadRequestGetsItsRequestIDBack() {
        let sent = HTTPRequest(
            method: .get, target: "/nope", headers: HTTPHeaders([("X-Request-Id", "abc-123")]))
        let echoed = Self.configuration().errorResponse(.notFound, for: sent)
        #expect(echoed.headers["X-Request-Id"] == "abc-123")
        let minted = Self.configuration().errorResponse(
            .notFound, for: HTTPRequest(method: .get, target: "/nope"))
        #expect(minted.headers["X-Request-Id"]?.utf8.count == 32)
        // A head that could not be read has no id of its own: a fresh one.
        let unread = Self.configuration().errorResponse(
            .badRequest(status: .badRequest), for: nil)
        #expect(unread.headers["X-Request-Id"]?.utf8.count == 32)
    }
}
