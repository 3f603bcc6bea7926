import Foundation
import HTTPCore
import HTTPServer
import Testing

@Suite struct ServerErrorTests {
    @Test(arguments: [
        (ServerError.notFound, 404, "not_found"),
        (.methodNotAllowed(allow: [.get]), 405, "method_not_allowed"),
        (.badRequest(status: .requestHeaderFieldsTooLarge), 431, "invalid_request"),
        (.requestTimeout, 408, "invalid_request"),
        (.handlerFailed, 500, "server_error"),
    ])
    func bodiesAreOAuthStyleJSON(error: ServerError, status: Int, code: String) throws {
        let response = error.response
        #expect(response.status.code == status)
        #expect(response.headers["Content-Type"] == "application/json")
        let object = try JSONSerialization.jsonObject(with: Data(response.body))
        let json = try #require(object as? [String: String])
        #expect(json["error"] == code)
        #expect(json["error_description"]?.isEmpty == false)
        #expect(json.count == 2)
    }
}
