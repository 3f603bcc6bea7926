import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

@Suite(.serialized, .resourceClass(.deadlines)) struct HTTPServerTests {
    @Test func shutdownFinishesInFlightRequestsClosesIdleOnesAndStopsAccepting() async throws {
        var configuration = ServerConfiguration()
        configuration.loopCount = 2
        let hold = HandlerHold()
        defer { hold.release() }  // a failure must not leave the handler held
        let server = HTTPServer(configuration: configuration, router: hold.router)
        let port = try server.start(host: "127.0.0.1", port: 0).port

        let idle = try RawClient(port: port)
        try await idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().statusCode == 200)

        // In flight until released, however slow the machine (a fixed 500 ms handler
        // could end before the drain began, and answer as an ordinary request).
        let busy = try RawClient(port: port)
        try await busy.send("GET /hold-awaiting HTTP/1.1\r\nHost: x\r\n\r\n")
        try await pollUntil { hold.isHeld }

        let shutdown = Task {
            await server.shutdown(drainDeadlineSeconds: 30)
            return ContinuousClock.now
        }
        try await pollUntil { server.isDraining }
        #expect(try await idle.readsEOF())
        let released = ContinuousClock.now
        hold.release()
        // The drain waited for the request in flight.
        #expect(await shutdown.value >= released)

        let response = try await busy.readResponse()
        #expect(response.bodyText == "held awaiting")
        #expect(response.header("Connection") == "close")
        #expect(server.connectionCount == 0)
        #expect(throws: RawClient.Failure.self) { try RawClient(port: port) }
    }

    @Test func theDrainDeadlineClosesWhatIsLeft() async throws {
        let hold = HandlerHold()
        defer { hold.release() }
        let server = HTTPServer(router: hold.router)
        let port = try server.start(host: "127.0.0.1", port: 0).port
        // A handler held until the test ends: the deadline, not its end, closes the
        // connection.
        let stuck = try RawClient(port: port)
        try await stuck.send("GET /hold-awaiting HTTP/1.1\r\nHost: x\r\n\r\n")
        try await pollUntil { server.connectionCount == 1 }
        let started = Date()
        await server.shutdown(drainDeadlineSeconds: 0.3)
        let took = Date().timeIntervalSince(started)
        #expect(took >= 0.3 && took < 60)
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
