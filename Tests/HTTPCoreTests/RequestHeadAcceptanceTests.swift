import HTTPCore
import Testing

/// A well-formed request and what the parser must make of it.
struct AcceptCase: CustomTestStringConvertible, Sendable {
    let rule: Int
    let input: String
    var method = "GET"
    var target = "/"
    var version = HTTPVersion.http1_1
    var framing = BodyFraming.none
    var keepAlive = true
    var expectContinue = false
    var headers: [(String, String)]? = nil

    var testDescription: String { "rule \(rule): \(input.debugDescription)" }
}

private let acceptances: [AcceptCase] = [
    AcceptCase(
        rule: 1, input: "GET /v1/swap?a=1 HTTP/1.1\r\nHost: a\r\n\r\n", target: "/v1/swap?a=1"),
    AcceptCase(rule: 2, input: "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
    AcceptCase(rule: 3, input: "PURGE / HTTP/1.1\r\nHost: a\r\n\r\n", method: "PURGE"),
    AcceptCase(rule: 4, input: "GET / HTTP/1.0\r\n\r\n", version: .http1_0, keepAlive: false),
    AcceptCase(
        rule: 4, input: "GET / HTTP/1.2\r\nHost: a\r\n\r\n",
        version: HTTPVersion(major: 1, minor: 2)),
    AcceptCase(
        rule: 5, input: "GET http://a.example/x?y HTTP/1.1\r\nHost: a.example\r\n\r\n",
        target: "http://a.example/x?y"),
    AcceptCase(
        rule: 5, input: "GET HTTPS://a.example:8443/x/y?q=/z HTTP/1.1\r\nHost: a\r\n\r\n",
        target: "HTTPS://a.example:8443/x/y?q=/z"),
    AcceptCase(
        rule: 5, input: "GET http://[::1]:8080/healthz HTTP/1.1\r\nHost: a\r\n\r\n",
        target: "http://[::1]:8080/healthz"),
    AcceptCase(
        rule: 5, input: "GET http://a%41.example HTTP/1.1\r\nHost: a\r\n\r\n",
        target: "http://a%41.example"),
    AcceptCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX-A: \t spaced value \t\r\nX-B:\r\n\r\n",
        headers: [("Host", "a"), ("X-A", "spaced value"), ("X-B", "")]),
    AcceptCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: caf\u{E9}\r\n\r\n",
        headers: [("Host", "a"), ("X", "caf\u{E9}")]),
    AcceptCase(
        rule: 12, input: "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
        headers: [("Host", "[::1]:8080")]),
    AcceptCase(rule: 12, input: "GET / HTTP/1.1\r\nHOST: a\r\n\r\n", headers: [("HOST", "a")]),
    AcceptCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n",
        method: "POST", framing: .chunked),
    AcceptCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,chunked\r\n\r\n",
        method: "POST", framing: .chunked),
    AcceptCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0042\r\n\r\n",
        method: "POST", framing: .contentLength(42)),
    AcceptCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
        method: "POST", framing: .none),
    AcceptCase(
        rule: 18, input: "POST / HTTP/1.1\r\nHost: a\r\n\r\n", method: "POST", framing: .none),
    AcceptCase(
        rule: 19, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n",
        method: "POST", framing: .contentLength(65536)),
    AcceptCase(
        rule: 22, input: "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", keepAlive: false),
    AcceptCase(
        rule: 22, input: "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, CLOSE\r\n\r\n",
        keepAlive: false),
    AcceptCase(
        rule: 22,
        input: "GET / HTTP/1.1\r\nHost: a\r\nConnection: x-foo\r\nConnection: close\r\n\r\n",
        keepAlive: false),
    AcceptCase(
        rule: 22, input: "GET / HTTP/1.1\r\nHost: a\r\nConnection: closed\r\n\r\n", keepAlive: true),
    AcceptCase(
        rule: 22, input: "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", version: .http1_0,
        keepAlive: true),
    AcceptCase(
        rule: 22, input: "GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n",
        version: .http1_0, keepAlive: false),
    AcceptCase(
        rule: 24,
        input: "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n",
        method: "POST", framing: .contentLength(5), expectContinue: true),
    AcceptCase(
        rule: 24, input: "POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
        method: "POST", version: .http1_0, framing: .contentLength(5), keepAlive: false,
        expectContinue: false),
]

@Suite struct RequestHeadAcceptanceTests {
    @Test(arguments: acceptances)
    func acceptsTheSameWayHoweverSplit(_ rule: AcceptCase) throws {
        let input = Feeding.bytes(rule.input)
        let outcomes = RequestOutcome.allFeedings(input)
        #expect(outcomes.count == 1)
        let head = try #require(outcomes.first?.head)
        #expect(head.method.rawValue == rule.method)
        #expect(head.target == rule.target)
        #expect(head.version == rule.version)
        #expect(head.framing == rule.framing)
        #expect(head.keepAlive == rule.keepAlive)
        #expect(head.expectContinue == rule.expectContinue)
        #expect(head.byteCount == input.count)
        if let expected = rule.headers {
            #expect(head.headers == HTTPHeaders(expected))
        }
    }

    @Test func pipelinedHeadsParseFromOneBuffer() throws {
        let buffer = Feeding.bytes(
            "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
                + "GET /b HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        var parser = RequestHeadParser()
        let first = try #require(try parser.parse(buffer))
        #expect(first.target == "/a")
        #expect(first.framing == .contentLength(3))
        let secondStart = first.byteCount + 3
        let second = try #require(try parser.parse(buffer, from: secondStart))
        #expect(second.target == "/b")
        let thirdStart = secondStart + second.byteCount
        let third = try #require(try parser.parse(buffer, from: thirdStart))
        #expect(third.target == "/c")
        #expect(!third.keepAlive)
        #expect(thirdStart + third.byteCount == buffer.count)
    }

    @Test func incompleteHeadsAskForMore() throws {
        var parser = RequestHeadParser()
        #expect(try parser.parse(Feeding.bytes("")) == nil)
        #expect(try parser.parse(Feeding.bytes("GET / HTTP/1.1\r\nHost: a\r\n")) == nil)
        #expect(try parser.parse(Feeding.bytes("GET / HTTP/1.1\r\nHost: a\r\n\r")) == nil)
        let head = try parser.parse(Feeding.bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(head?.byteCount == 27)
    }

    @Test func layoutRangesPointIntoTheBuffer() throws {
        let input = Feeding.bytes("GET /x HTTP/1.1\r\nHost:  h \r\n\r\n")
        var parser = RequestHeadParser()
        let layout = try input.withUnsafeBytes { (bytes) throws -> RequestHeadLayout? in
            try parser.parse(bytes)
        }
        let found = try #require(layout)
        #expect(found.method == 0..<3)
        #expect(found.target == 4..<6)
        #expect(found.fields == [FieldRange(name: 17..<21, value: 24..<25)])
        #expect(found.byteCount == input.count)
    }

    @Test func requestCarriesTheHeadAndBody() throws {
        var parser = RequestHeadParser()
        let head = try #require(
            try parser.parse(Feeding.bytes("POST /v1/swap HTTP/1.1\r\nHost: a\r\n\r\n")))
        let request = head.request(body: [1, 2], remoteAddress: "127.0.0.1")
        #expect(request.method == .post)
        #expect(request.path == "/v1/swap")
        #expect(request.body == [1, 2])
        #expect(request.remoteAddress == "127.0.0.1")
    }
}
