import Foundation
import HTTPCore
import HTTPServer
import Synchronization
import TestSupport
import Testing

@Suite(.serialized, .resourceClass(.deadlines)) struct ConnectionTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            for _ in 0..<3 {
                try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.statusCode == 200)
                #expect(response.bodyText == "hello")
                #expect(response.header("Connection") == nil)
                #expect(response.header("Content-Length") == "5")
            }
        }
    }

    @Test func pipelinedResponsesKeepRequestOrderEvenWhenTheFirstIsSlow() async throws {
        let hold = HandlerHold()
        defer { hold.release() }  // a failure must not leave the handler held
        try await TestServer.with(router: hold.router) { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "GET /hold-awaiting HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            // The first is slow for as long as the test likes: held until the others are
            // surely in the server's hands.
            try await pollUntil { hold.isHeld }
            hold.release()
            #expect(try await client.readResponse().bodyText == "held awaiting")
            #expect(try await client.readResponse().bodyText == "hello")
            #expect(try await client.readResponse().bodyText == "abc")
        }
    }

    /// Sends `count` pipelined requests on one connection, beside the reads (neither side
    /// may wait for the other's buffer to drain), and checks each answer in order.
    static func pipeline(
        _ count: Int, _ request: (Int) -> String,
        check: (Int, RawClient.Response) -> Void
    ) async throws {
        try await TestServer.with({ $0.maxRequestsPerConnection = 10_000 }) { _, port in
            let client = try RawClient(port: port)
            let requests = (0..<count).map(request).joined()
            async let sent: Void = client.send(requests)
            for i in 0..<count { check(i, try await client.readResponse()) }
            try await sent
        }
    }

    @Test func thousandsOfPipelinedRequestsAreAllAnsweredInOrder() async throws {
        // Unknown paths are answered without a handler Task: the quickest path, and the
        // one that must not recurse once per buffered request.
        try await Self.pipeline(3000) { i in
            i % 2 == 0
                ? "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"
                : "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
        } check: { i, response in
            #expect(response.statusCode == (i % 2 == 0 ? 404 : 200))
        }
    }

    @Test func respondingHandlersAnswerInOrderWhetherTheyAnswerAtOnceOrLaterElsewhere()
        async throws
    {
        // Answered before the handler returns: must not recurse once per buffered request;
        // answered from another thread: must still be written on the loop, in order.
        try await Self.pipeline(3000) { i in
            i % 100 == 1
                ? "GET /respond-elsewhere?\(i % 7) HTTP/1.1\r\nHost: x\r\n\r\n"
                : "GET /respond-now?\(i) HTTP/1.1\r\nHost: x\r\n\r\n"
        } check: { i, response in
            #expect(response.statusCode == 200)
            #expect(response.bodyText == (i % 100 == 1 ? "elsewhere \(i % 7)" : "now \(i)"))
        }
    }

    @Test func connectionCloseIsHonouredAfterTheResponse() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 200)
            #expect(response.header("Connection") == "close")
            #expect(try await client.readsEOF())
        }
    }

    @Test(arguments: [
        ("GET /hello HTTP/1.0\r\n\r\n", false),
        ("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, close\r\n\r\n", false),
    ])
    func persistenceFollowsVersionAndConnectionTokens(request: String, persists: Bool)
        async throws
    {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.statusCode == 200)
            if persists {
                #expect(response.header("Connection") == "keep-alive")
                try await client.send(request)
                #expect(try await client.readResponse().statusCode == 200)
            } else {
                #expect(response.header("Connection") == "close")
                #expect(try await client.readsEOF())
            }
        }
    }

    @Test func headAnswersWithGetHeadersAndNoBody() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(headRequest: true)
            #expect(head.statusCode == 200)
            #expect(head.header("Content-Length") == "5")
            // The next response starts right after the head: no body bytes were sent.
            #expect(try await client.readResponse().bodyText == "hello")
        }
    }

    @Test func chunkedAndContentLengthBodiesReachTheHandler() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n")
            let chunked = try await client.readResponse()
            #expect(chunked.bodyText == "abcde")
            #expect(chunked.header("X-Peer") == "127.0.0.1")
            try await client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nfg")
            #expect(try await client.readResponse().bodyText == "fg")
        }
    }

    @Test func aThrowingHandlerBecomesAGeneric500() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send("GET /throw HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 500)
            #expect(response.header("Content-Type") == "application/json")
            #expect(!response.bodyText.contains("Secret"))
            #expect(response.bodyText.contains(#""error":"server_error""#))
            // The connection survives a handler failure.
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().statusCode == 200)
        }
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBody() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
            )
            let interim = try await client.readResponse()
            #expect(interim.statusCode == 100)
            try await client.send("body")
            let final = try await client.readResponse()
            #expect(final.statusCode == 200)
            #expect(final.bodyText == "body")
        }
    }

    @Test func expectContinueWithATooLargeBodyGetsTheFinalStatusInstead() async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n"
                    + "Expect: 100-continue\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.statusCode == 413)
            #expect(response.header("Connection") == "close")
        }
    }

    /// Handlers run on their connection's loop; one that awaits frees the loop.
    @Test func aSlowHandlerDoesNotStallOtherConnections() async throws {
        let hold = HandlerHold()
        try await TestServer.with({ $0.loopCount = 1 }, router: hold.router) { _, port in
            defer { hold.release() }  // a failing read must not leave the loop held
            let slow = try RawClient(port: port)
            try await slow.send("GET /hold-awaiting HTTP/1.1\r\nHost: x\r\n\r\n")
            try await pollUntil { hold.isHeld }
            let fast = try RawClient(port: port)
            try await fast.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await fast.readResponse().statusCode == 200)
            hold.release()
            #expect(try await slow.readResponse().bodyText == "held awaiting")
        }
    }

    /// A handler that computes holds up only its own loop: connections are handed to the
    /// loops round-robin, so the next one lands on the other loop and is served.
    @Test func aComputingHandlerDoesNotStallConnectionsOfOtherLoops() async throws {
        let hold = HandlerHold()
        try await TestServer.with({ $0.loopCount = 2 }, router: hold.router) { _, port in
            defer { hold.release() }  // a failing read must not leave the loop held
            let busy = try RawClient(port: port)
            try await busy.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
            try await pollUntil { hold.isHeld }
            let other = try RawClient(port: port)
            try await other.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await other.readResponse().statusCode == 200)
            hold.release()
            #expect(try await busy.readResponse().bodyText == "held")
        }
    }

    @Test func endOfFileInsideABodyNeverDispatches() async throws {
        let calls = Atomic<Int>(0)
        let router = Router([
            Route(.post, "/count") { request, _ in
                calls.add(1, ordering: .relaxed)
                return HTTPResponse(status: .ok, body: request.body)
            }
        ])
        try await TestServer.with(router: router) { _, port in
            let cut = try RawClient(port: port)
            try await cut.send("POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
            cut.shutdownWrite()
            #expect(try await cut.readsEOF())
            let cutChunked = try RawClient(port: port)
            try await cutChunked.send(
                "POST /count HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
            cutChunked.shutdownWrite()
            #expect(try await cutChunked.readsEOF())
            // A complete request on a new connection is counted, so the counter works.
            let whole = try RawClient(port: port)
            try await whole.send("POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nz")
            #expect(try await whole.readResponse().bodyText == "z")
        }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    @Test func requestsPerConnectionAreCapped() async throws {
        try await TestServer.with({ $0.maxRequestsPerConnection = 2 }) { _, port in
            let client = try RawClient(port: port)
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().header("Connection") == nil)
            try await client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().header("Connection") == "close")
            #expect(try await client.readsEOF())
        }
    }
}
