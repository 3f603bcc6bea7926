import Foundation
import HTTPServer
import Testing

/// The size limits of `ServerConfiguration`, each answered with its status and a close.
@Suite struct ConnectionLimitTests {
    static let manyFields = (0..<101).map { "X-F\($0): v\r\n" }.joined()
    static let bigField = "X-Big: " + String(repeating: "b", count: 17 * 1024) + "\r\n"

    @Test(arguments: [
        ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("GET /hello HTTP/1.1\r\nHost: x\r\n\(manyFields)\r\n", 431),
        ("GET /hello HTTP/1.1\r\nHost: x\r\n\(bigField)\r\n", 431),
    ])
    func oversizedHeadsAreRefused(request: String, status: Int) async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.statusCode == status)
            #expect(response.header("Connection") == "close")
            #expect(try client.readsEOF())
        }
    }

    @Test func contentLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            // Only the head: the 413 must come without a single body byte.
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 65537\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusCode == 413)
            #expect(response.header("Connection") == "close")
        }
    }

    @Test func chunkedBodiesOverTheLimitAreRefused() async throws {
        try await TestServer.with({ $0.maxBodyBytes = 8 }) { _, port in
            let client = try RawClient(port: port)
            try client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n")
            #expect(try client.readResponse().statusCode == 413)
        }
    }

    @Test func theConnectionCapHoldsNewConnectionsUntilOneCloses() async throws {
        try await TestServer.with({
            $0.maxConnections = 2
            $0.acceptRetryDelaySeconds = 0.05
        }) { server, port in
            var first: RawClient? = try RawClient(port: port)
            let second = try RawClient(port: port)
            for client in [first, second].compactMap({ $0 }) {
                try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try client.readResponse().statusCode == 200)
            }
            #expect(server.connectionCount == 2)
            // The third TCP handshake completes in the kernel backlog, but the server does
            // not accept it while at the cap, so its request waits unanswered.
            let third = try RawClient(port: port, receiveTimeoutSeconds: 0.5)
            try third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(throws: RawClient.Failure.self) { try third.readResponse() }
            first = nil  // deinit closes the first connection
            #expect(first == nil)
            #expect(try third.readResponseEventually().statusCode == 200)
        }
    }
}

extension RawClient {
    /// Retries `readResponse` across receive timeouts for up to `seconds`.
    func readResponseEventually(seconds: Double = 5) throws -> Response {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try readResponse()
            } catch let failure as Failure where Date() < deadline {
                _ = failure
            }
        }
    }
}
