import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@Suite(.serialized, .resourceClass(.deadlines)) struct HTTPServerTests {
    @Test func shutdownFinishesInFlightRequestsClosesIdleOnesAndStopsAccepting() async throws {
        var configuration = ServerConfiguration()
        configuration.loopCount = 2
        let server = HTTPServer(configuration: configuration, router: TestServer.router())
        let port = try server.start(host: "127.0.0.1", port: 0).port

        let idle = try RawClient(port: port)
        try await idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().statusCode == 200)

        let busy = try RawClient(port: port)
        try await busy.send("GET /sleep?500 HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(100))

        let started = Date()
        await server.shutdown(drainDeadlineSeconds: 5)
        let took = Date().timeIntervalSince(started)

        #expect(try await idle.readsEOF())
        let response = try await busy.readResponse()
        #expect(response.bodyText == "slept 500")
        #expect(response.header("Connection") == "close")
        #expect(took >= 0.3 && took < 3)
        #expect(server.connectionCount == 0)
        #expect(throws: RawClient.Failure.self) { try RawClient(port: port) }
    }

    @Test func theDrainDeadlineClosesWhatIsLeft() async throws {
        let server = HTTPServer(router: TestServer.router())
        let port = try server.start(host: "127.0.0.1", port: 0).port
        let stuck = try RawClient(port: port)
        try await stuck.send("GET /sleep?5000 HTTP/1.1\r\nHost: x\r\n\r\n")
        try await Task.sleep(for: .milliseconds(100))
        let started = Date()
        await server.shutdown(drainDeadlineSeconds: 0.3)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(try await stuck.readsEOF())
    }

    @Test func aSecondListenerServesItsOwnRouter() async throws {
        let admin = Router([
            Route(.get, "/healthz") { _, _ in HTTPResponse(status: .ok, body: Array("admin".utf8)) }
        ])
        try await TestServer.with { server, port in
            let adminPort = try server.addListener(host: "127.0.0.1", port: 0, router: admin).port
            #expect(adminPort != port)
            let client = try RawClient(port: adminPort)
            try await client.send(
                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().bodyText == "admin")
            #expect(try await client.readResponse().statusCode == 404)
        }
    }
}
