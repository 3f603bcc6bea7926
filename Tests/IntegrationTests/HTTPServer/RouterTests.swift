import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@Suite(.resourceClass(.integration)) struct RouterTests {
    static func router() -> Router {
        Router([
            Route(.get, "/a") { _, _ in HTTPResponse(status: .ok, body: Array("get".utf8)) },
            Route(.post, "/a") { _, _ in HTTPResponse(status: .ok, body: Array("post".utf8)) },
            Route(.post, "/only-post") { _, _ in HTTPResponse(status: .noContent) },
        ])
    }

    /// What the server answers for `request` through `router`: the handler's response, or
    /// the configured error answer (as `Connection` does).
    static func answer(_ router: Router, _ request: HTTPRequest) async throws -> HTTPResponse {
        switch router.resolve(method: request.method, path: request.path) {
        case .handler(let handler, let routePath):
            return try await handler.response(to: request, RequestContext(routePath: routePath))
        case .error(let error):
            return TestServer.configuration().errorResponse(error, for: request)
        }
    }

    struct Case: Sendable {
        var method: String
        var path: String
        var status: Int
        var body: String?
        var allow: String?
    }

    @Test(arguments: [
        Case(method: "GET", path: "/a", status: 200, body: "get"),
        Case(method: "POST", path: "/a", status: 200, body: "post"),
        Case(method: "GET", path: "/a?x=1", status: 200, body: "get"),
        Case(method: "GET", path: "/nope", status: 404, body: nil),
        Case(method: "GET", path: "/a/", status: 404, body: nil),
        Case(method: "DELETE", path: "/a", status: 405, allow: "GET, HEAD, POST"),
        Case(method: "GET", path: "/only-post", status: 405, allow: "POST"),
        Case(method: "HEAD", path: "/only-post", status: 405, allow: "POST"),
    ])
    func resolves(_ routeCase: Case) async throws {
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: routeCase.method), target: routeCase.path)
        let response = try await Self.answer(Self.router(), request)
        #expect(response.status.code == routeCase.status)
        if let body = routeCase.body {
            #expect(String(decoding: response.body, as: UTF8.self) == body)
        }
        #expect(response.headers["Allow"] == routeCase.allow)
        if routeCase.status == 404 {
            let json =
                try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
            #expect(json?["error"] == "not_found")
            #expect(json?["error_description"]?.isEmpty == false)
            #expect(response.headers["Content-Type"] == "application/json")
        }
        if routeCase.status == 405 {
            let json =
                try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
            #expect(json?["error"] == "method_not_allowed")
        }
    }

    @Test func headIsServedByTheGetHandler() async throws {
        let router = Router([
            Route(.get, "/h") { request, _ in
                HTTPResponse(status: .ok, body: Array(request.method.rawValue.utf8))
            }
        ])
        let response = try await Self.answer(router, HTTPRequest(method: .head, target: "/h"))
        #expect(response.status == .ok)
        // The handler sees HEAD; the server drops the body on the wire.
        #expect(response.body == Array("HEAD".utf8))
    }

    @Test func unknownPathsOverTheWireGetTheJSON404AndKeepTheConnection() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 404)
            #expect(response.bodyText.contains(#""error":"not_found""#))
            try await client.send("BREW /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let wrongMethod = try await client.readResponse()
            #expect(wrongMethod.statusCode == 405)
            #expect(wrongMethod.header("Allow") == "GET, HEAD")
        }
    }
}
