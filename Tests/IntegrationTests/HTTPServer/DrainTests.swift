import Foundation
import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// Graceful shutdown and requests already on their way. Found by scripts/prove/sigterm
/// (SIGTERM under 64 clients on fresh connections: 30 to 55 requests per run written
/// and then reset, never answered).
@Suite(.serialized, .resourceClass(.deadlines)) struct DrainTests {
    /// A connection whose request is in the kernel but not yet read when the drain
    /// begins is not idle: closing it would reset a request the client already sent.
    @Test func aRequestSentButNotYetReadWhenTheDrainBeginsIsAnswered() async throws {
        var configuration = ServerConfiguration()
        configuration.loopCount = 1
        let hold = HandlerHold()
        defer { hold.release() }  // a failure must not leave the loop held
        let server = HTTPServer(configuration: configuration, router: hold.router)
        let port = try server.start(host: "127.0.0.1", port: 0).port

        // /hold keeps the only loop busy until the test lets it go, so nothing else runs
        // there meanwhile: the next connection is accepted (the listener has its own
        // queue) and its request arrives, but the loop reads it only after the drain has
        // begun.
        let busy = try RawClient(port: port)
        try await busy.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        try await pollUntil { hold.isHeld }
        let waiting = try RawClient(port: port)
        try await waiting.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        try await pollUntil { server.connectionCount == 2 }

        async let drained: Void = server.shutdown(drainDeadlineSeconds: 30)
        try await pollUntil { server.isDraining }
        hold.release()
        await drained

        #expect(try await busy.readResponse().bodyText == "held")
        let answer = try await waiting.readResponse()
        #expect(answer.statusCode == 200)
        #expect(answer.bodyText == "hello")
        #expect(answer.header("Connection") == "close")
        #expect(server.connectionCount == 0)
    }

    /// A new connection that has not sent its first request when the drain begins was
    /// accepted before it: its request, sent a moment later, is answered (a close at
    /// once reset it), and a connection that stays silent is closed after the linger
    /// time, so the exit is not held longer than that.
    @Test func aNewConnectionGetsTheLingerTimeToSendItsFirstRequest() async throws {
        var configuration = ServerConfiguration()
        configuration.lingerSeconds = 1
        let server = HTTPServer(configuration: configuration, router: TestServer.router())
        let port = try server.start(host: "127.0.0.1", port: 0).port
        let late = try RawClient(port: port)
        let silent = try RawClient(port: port)
        try await pollUntil { server.connectionCount == 2 }
        let started = Date()
        // A drain deadline far past the linger time: the silent connection's close at the
        // linger time, not at the deadline, is what ends the drain.
        async let drained: Void = server.shutdown(drainDeadlineSeconds: 60)
        try await pollUntil { server.isDraining }
        // One turn of every loop after the drain was queued there: it has begun.
        _ = await server.connectionCounts()
        try await late.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try await late.readResponse()
        #expect(answer.statusCode == 200)
        #expect(answer.header("Connection") == "close")
        #expect(try await silent.readsEOF())
        await drained
        let took = Date().timeIntervalSince(started)
        #expect(took >= 0.9 && took < 30)
    }

    /// The other side of the same rule: a kept-alive connection with nothing received
    /// still closes at once when the drain begins.
    @Test func anIdleKeepAliveConnectionStillClosesAtOnce() async throws {
        let server = HTTPServer(router: TestServer.router())
        let port = try server.start(host: "127.0.0.1", port: 0).port
        let idle = try RawClient(port: port)
        try await idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().statusCode == 200)
        let started = Date()
        // At once, not at the (far) drain deadline.
        await server.shutdown(drainDeadlineSeconds: 60)
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(try await idle.readsEOF())
    }
}
