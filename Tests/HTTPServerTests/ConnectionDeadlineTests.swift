import Foundation
import HTTPServer
import Testing

/// The deadlines of `ServerConfiguration`, each configured short.
@Suite struct ConnectionDeadlineTests {
    @Test func theHeaderDeadlineIsAbsoluteEvenForATricklingClient() async throws {
        try await TestServer.with({ $0.headerTimeoutSeconds = 0.6 }) { _, port in
            let client = try RawClient(port: port)
            let started = Date()
            // One byte every 50 ms would take 2.5 s for this head; each byte is activity,
            // so only an absolute deadline stops it at about 0.6 s.
            let head = "GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: " + String(repeating: "s", count: 20)
            let fd = client.fd
            let trickler = Thread {
                // Only the fd crosses threads; the reading side stays on the test's task.
                for byte in head.utf8 {
                    var one = byte
                    guard send(fd, &one, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            trickler.start()
            let response = try client.readResponse()
            let elapsed = Date().timeIntervalSince(started)
            #expect(response.statusCode == 408)
            #expect(response.header("Connection") == "close")
            #expect(elapsed >= 0.55 && elapsed < 1.5)
        }
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderDeadline() async throws {
        try await TestServer.with({ $0.headerTimeoutSeconds = 0.3 }) { _, port in
            let client = try RawClient(port: port)
            let started = Date()
            #expect(try client.readsEOF())
            #expect(Date().timeIntervalSince(started) < 1.5)
        }
    }

    @Test func theBodyDeadlineAnswers408() async throws {
        try await TestServer.with({ $0.bodyTimeoutSeconds = 0.4 }) { _, port in
            let client = try RawClient(port: port)
            let started = Date()
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
            let response = try client.readResponse()
            #expect(response.statusCode == 408)
            #expect(Date().timeIntervalSince(started) >= 0.35)
            #expect(try client.readsEOF())
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosed() async throws {
        try await TestServer.with({ $0.idleTimeoutSeconds = 0.4 }) { _, port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse().statusCode == 200)
            let idleFrom = Date()
            #expect(try client.readsEOF())
            let idle = Date().timeIntervalSince(idleFrom)
            #expect(idle >= 0.35 && idle < 1.5)
        }
    }

    @Test func aClientThatNeverReadsIsDisconnectedAtTheWriteDeadline() async throws {
        try await TestServer.with({ $0.writeTimeoutSeconds = 0.5 }) { server, port in
            let client = try RawClient(port: port)
            // Shrink our receive buffer so the 8 MiB response cannot fit in the kernel.
            var small: Int32 = 4096
            setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            let started = Date()
            while server.connectionCount > 0, Date().timeIntervalSince(started) < 5 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.connectionCount == 0)
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.4 && elapsed < 2.5)
        }
    }
}
