import Foundation
import HTTPServer
import TestSupport
import Testing

/// shared/docs/HTTP1-RULES.md through a real socket: each bad request gets its status and
/// `Connection: close`, fed whole and byte by byte, and the server still serves a
/// well-formed request on a new connection afterwards.
@Suite(.resourceClass(.integration)) struct BadRequestTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var bytes: String
        var status: Int
        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(rule: "1 double space", bytes: "GET  /hello HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(
            rule: "2 two empty lines", bytes: "\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        Case(rule: "4 major 2", bytes: "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        Case(rule: "4 HTTP/1.32", bytes: "GET /hello HTTP/1.32\r\nHost: x\r\n\r\n", status: 400),
        Case(
            rule: "6 bare LF in request line", bytes: "GET /\nHTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        Case(
            rule: "6 bare CR in field", bytes: "GET /hello HTTP/1.1\r\nHost: x\rY\r\n\r\n",
            status: 400),
        Case(
            rule: "7 TAB before first header", bytes: "GET /hello HTTP/1.1\r\n\tHost: x\r\n\r\n",
            status: 400),
        Case(
            rule: "8 space before colon",
            bytes: "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length : 3\r\n\r\nabc", status: 400),
        Case(
            rule: "9 obs-fold", bytes: "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n",
            status: 400),
        Case(
            rule: "10 NUL in value",
            bytes: "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400),
        Case(rule: "12 missing Host", bytes: "GET /hello HTTP/1.1\r\n\r\n", status: 400),
        Case(
            rule: "12 two Hosts", bytes: "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
            status: 400),
        Case(
            rule: "13 TE and CL",
            bytes:
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            status: 400),
        Case(
            rule: "14 TE in 1.0",
            bytes: "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400
        ),
        Case(
            rule: "15 unknown coding",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501),
        Case(
            rule: "15 chunked not last",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            status: 400),
        Case(
            rule: "16 CL with plus",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", status: 400),
        Case(
            rule: "16 CL hex",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", status: 400),
        Case(
            rule: "17 two CL",
            bytes:
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
            status: 400),
        Case(
            rule: "20 chunk size 0_2e",
            bytes:
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0_2e\r\n\r\n",
            status: 400),
        Case(
            rule: "20 CR CR in chunk ext",
            bytes:
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\r;a\r\nab\r\n0\r\n\r\n",
            status: 400),
        Case(
            rule: "24 unknown expectation",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 1\r\n\r\na",
            status: 417),
    ]

    @Test(arguments: cases)
    func refusedWholeThenANewConnectionIsServed(_ badCase: Case) async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            try await client.send(badCase.bytes)
            try await Self.expectRefusal(client, badCase)
            try await Self.expectServed(port)
        }
    }

    @Test(arguments: cases)
    func refusedWhenSplitAtEveryByte(_ badCase: Case) async throws {
        try await TestServer.with { _, port in
            let client = try RawClient(port: port)
            // The server may answer (and shut its side) before the last byte; later sends
            // can then fail, which is fine: the response is what is checked.
            try? await client.trickle(badCase.bytes, pauseSeconds: 0.001)
            try await Self.expectRefusal(client, badCase)
            try await Self.expectServed(port)
        }
    }

    static func expectRefusal(_ client: RawClient, _ badCase: Case) async throws {
        let response = try await client.readResponse()
        #expect(response.statusCode == badCase.status, "\(badCase.rule)")
        #expect(response.header("Connection") == "close", "\(badCase.rule)")
        #expect(response.bodyText.hasPrefix(#"{"error":""#), "\(badCase.rule)")
        // A client done sending ends the server's lingering close at once.
        client.shutdownWrite()
        #expect(try await client.readsEOF(), "\(badCase.rule)")
    }

    static func expectServed(_ port: UInt16) async throws {
        let fresh = try RawClient(port: port)
        try await fresh.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await fresh.readResponse().bodyText == "hello")
    }
}
