import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// The size limits of `ServerConfiguration`, each answered with its status and a close.
@Suite(.resourceClass(.integration)) struct ConnectionLimitTests {
    static let manyFields = (0..<101).map { "X-F\($0): v\r\n" }.joined()
    static let longLine = "X-Big: " + String(repeating: "b", count: 9 * 1024) + "\r\n"
    /// Five 4 KB lines: each under the line limit, together over the 16 KiB block.
    static let bigBlock = (0..<5).map {
        "X-B\($0): " + String(repeating: "b", count: 4000) + "\r\n"
    }
    .joined()

    struct Case: CustomTestStringConvertible, Sendable {
        var limit: String
        var request: String
        var status: Int
        var testDescription: String { limit }
    }

    @Test(arguments: [
        Case(
            limit: "request line 8 KiB",
            request: "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 414),
        Case(
            limit: "100 fields", request: "GET /hello HTTP/1.1\r\nHost: x\r\n\(manyFields)\r\n",
            status: 431),
        Case(
            limit: "field line 8 KiB",
            request: "GET /hello HTTP/1.1\r\nHost: x\r\n\(longLine)\r\n", status: 431),
        Case(
            limit: "header block 16 KiB",
            request: "GET /hello HTTP/1.1\r\nHost: x\r\n\(bigBlock)\r\n", status: 431),
    ])
    func oversizedHeadsAreRefused(_ limitCase: Case) async throws {
        let request = limitCase.request
        let status = limitCase.status
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.statusCode == status)
            #expect(response.header("Connection") == "close")
            #expect(try await client.readsEOF())
        }
    }

    @Test func contentLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            // Only the head: the 413 must come without a single body byte.
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 413)
            #expect(response.header("Connection") == "close")
        }
    }

    @Test func afterA413TheServerLingersDrainingWhatTheClientStillSends() async throws {
        // A linger far longer than the test's sends take on a loaded machine: what is under
        // test is that the server drains while it lingers, not how long it lingers.
        try await TestServer.with({ $0.lingerSeconds = 30 }) { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 413)
            #expect(response.header("Connection") == "close")
            // A client that sends its body anyway: the server shut only its write side
            // and keeps reading (RFC 9112 §9.6). Had it closed the socket, the first send
            // would draw an RST and the second would fail with EPIPE/ECONNRESET.
            let chunk = [UInt8](repeating: 0x78, count: 256 * 1024)
            try await client.send(chunk)
            // Until the server's side has taken the first chunk (it drains) or reset the
            // connection (it closed): then the second send tells which.
            try await pollUntil { Loopback.sendsSettled(client.fd) }
            try await client.send(chunk)
            client.shutdownWrite()
            #expect(try await client.readsEOF())
        }
    }

    @Test func chunkedBodiesOverTheLimitAreRefused() async throws {
        try await TestServer.with({ $0.limits.maxBodyBytes = 8 }) { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 413)
        }
    }

    /// The listener's pauses at the cap, counted.
    final class CapPauses: ServerObserver {
        private let count = Mutex(0)
        func observe(_ event: ServerEvent) {
            if event == .connectionCapReached { count.withLock { $0 += 1 } }
        }
        var seen: Int { count.withLock { $0 } }
    }

    /// No time limits but generous ones: the third connection is known held once the
    /// listener reports a pause at the cap after it connected (paused, the listener
    /// retries every 50 ms and pauses again while a connection waits), and its answer is
    /// awaited for up to 30 s. Before, "not answered" was a 0.5 s receive timeout and the
    /// answer after the close had 5 s in all (0.5 s per try): the close seen, the next
    /// retry, the accept and the answer, on a loaded machine, can take longer.
    @Test func theConnectionCapHoldsNewConnectionsUntilOneCloses() async throws {
        let pauses = CapPauses()
        try await TestServer.with({
            $0.maxConnections = 2
            $0.acceptRetryDelaySeconds = 0.05
            $0.observer = pauses
        }) { server, port in
            var first: RawClient? = try RawClient(port: port)
            let second = try RawClient(port: port)
            for client in [first, second].compactMap({ $0 }) {
                try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().statusCode == 200)
            }
            #expect(server.connectionCount == 2)
            // The third TCP handshake completes in the kernel backlog, but the server does
            // not accept it while at the cap, so its request waits unanswered.
            let pausedBefore = pauses.seen
            let third = try RawClient(port: port, receiveTimeoutSeconds: 30)
            try await third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            try await pollUntil(every: .milliseconds(5)) { pauses.seen > pausedBefore }
            #expect(server.connectionCount == 2)
            #expect(!Loopback.hasBytesToRead(third.fd))
            first = nil  // deinit closes the first connection
            #expect(first == nil)
            #expect(try await third.readResponse().statusCode == 200)
        }
    }
}
