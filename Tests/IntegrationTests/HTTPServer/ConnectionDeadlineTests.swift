import Foundation
import HTTPServer
import TestSupport
import Testing

/// The deadlines of `ServerConfiguration`, each configured short.
@Suite(.serialized, .resourceClass(.deadlines)) struct ConnectionDeadlineTests {
    @Test func theHeaderDeadlineIsAbsoluteEvenForATricklingClient() async throws {
        try await TestServer.with({ $0.headerTimeoutSeconds = 0.6 }) { _, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 30)
            let started = Date()
            // The head starts at once, before the trickle: a connection that has sent
            // nothing by the deadline is closed without an answer (the idle rule), which a
            // trickle task scheduled late on a busy machine would run into.
            try await client.send("GET /hello HTTP/1.1\r\n")
            // One byte every 50 ms would take a minute for this head; each byte is
            // activity, so only an absolute deadline stops it (at about 0.6 s; a deadline
            // that each byte renewed would leave the read to its 30 s timeout).
            let head = "Host: x\r\nX-Slow: " + String(repeating: "s", count: 1200)
            // Sending runs beside reading; awaiting it at the end keeps the client (and
            // its fd) alive until the trickle stops, which it does once the server has
            // closed and a send fails.
            async let trickled: Void = client.trickle(head, pauseSeconds: 0.05)
            let response = try await client.readResponse()
            let elapsed = Date().timeIntervalSince(started)
            #expect(response.statusCode == 408)
            #expect(response.header("Connection") == "close")
            #expect(elapsed >= 0.55)
            client.shutdownWrite()
            _ = try? await trickled
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderDeadline() async throws {
        try await TestServer.with({ $0.headerTimeoutSeconds = 0.3 }) { _, port in
            // Closed at the deadline, long before the read's 30 s timeout.
            let client = try RawClient(port: port, receiveTimeoutSeconds: 30)
            #expect(try await client.readsEOF())
        }
    }

    @Test func theBodyDeadlineAnswers408() async throws {
        try await TestServer.with({ $0.bodyTimeoutSeconds = 0.4 }) { _, port in
            let client = try RawClient(port: port)
            let started = Date()
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
            let response = try await client.readResponse()
            #expect(response.statusCode == 408)
            #expect(Date().timeIntervalSince(started) >= 0.35)
            #expect(try await client.readsEOF())
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosed() async throws {
        try await TestServer.with({ $0.idleTimeoutSeconds = 0.4 }) { _, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 30)
            // Timed from before the request: the server's idle clock starts when it has
            // sent the response, which a busy test machine may deliver to us late.
            let sentAt = Date()
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 200)
            #expect(try await client.readsEOF())
            let total = Date().timeIntervalSince(sentAt)
            #expect(total >= 0.4)
        }
    }

    @Test func aClientThatNeverReadsIsDisconnectedAtTheWriteDeadline() async throws {
        let recorder = ServerObserverTests.Recorder()
        try await TestServer.with({
            $0.writeTimeoutSeconds = 0.5
            $0.observer = recorder
        }) { server, port in
            let client = try RawClient(port: port)
            // Shrink our receive buffer so the 8 MiB response cannot fit in the kernel.
            var small: Int32 = 4096
            setsockopt(
                client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            // The clock starts before the request leaves: the write deadline runs from the
            // response, which comes after it. (Started once the test saw the connection
            // counted, it measured short whenever this task was scheduled late on a busy
            // machine: the deadline was already running.)
            let started = Date()
            try await client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            // The server reports the write deadline, then the connection is gone.
            #expect(try await recorder.waitFor(.deadlinePassed(.write)))
            try await pollUntil(every: .milliseconds(5)) { server.connectionCount == 0 }
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.4)
        }
    }
}
