import HTTPCore
import Testing

private let date = Feeding.bytes("Sun, 06 Nov 1994 08:49:37 GMT")

private func encoded(
    _ response: HTTPResponse, method: HTTPMethod = .get, version: HTTPVersion = .http1_1,
    close: Bool = false
) -> String {
    var encoder = ResponseEncoder()
    encoder.encode(
        response, requestMethod: method, requestVersion: version, closeConnection: close,
        date: date)
    return String(decoding: encoder.bytes, as: UTF8.self)
}

struct FramingCase: CustomTestStringConvertible, Sendable {
    let status: HTTPStatus
    var method = HTTPMethod.get
    let expected: String

    var testDescription: String { "\(status.code) to \(method)" }
}

/// RFC 9112 §6 / HTTP1-RULES rule 26: Content-Length for our bodies, none for
/// 1xx/204/304; HEAD gets the length but no body.
private let framingCases: [FramingCase] = [
    FramingCase(
        status: .ok,
        expected: "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"),
    FramingCase(
        status: .ok, method: .head,
        expected: "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n"),
    FramingCase(
        status: .noContent,
        expected: "HTTP/1.1 204 No Content\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\n\r\n"),
    FramingCase(
        status: .notModified,
        expected: "HTTP/1.1 304 Not Modified\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\n\r\n"),
    FramingCase(
        status: .continue,
        expected: "HTTP/1.1 100 Continue\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\n\r\n"),
    FramingCase(
        status: HTTPStatus(code: 42, reasonPhrase: "Odd"),
        expected: "HTTP/1.1 500 Internal Server Error\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"),
]

@Suite struct ResponseEncoderTests {
    @Test(arguments: framingCases)
    func framesEachStatus(_ rule: FramingCase) {
        let response = HTTPResponse(
            status: rule.status, headers: HTTPHeaders([("Content-Type", "text/plain")]),
            body: Array("hi".utf8))
        #expect(encoded(response, method: rule.method) == rule.expected)
    }

    @Test func theEncoderOwnsFramingAndConnectionFields() {
        let response = HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Length", "999"), ("Transfer-Encoding", "chunked"),
                ("Connection", "keep-alive"), ("date", "yesterday"), ("X-A", "1"),
            ]),
            body: Array("abc".utf8))
        #expect(
            encoded(response, close: true)
                == "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nX-A: 1\r\n"
                + "Content-Length: 3\r\nConnection: close\r\n\r\nabc")
    }

    @Test func http10KeepAliveIsAnnounced() {
        let text = encoded(HTTPResponse(status: .ok), version: .http1_0)
        #expect(text.hasSuffix("Content-Length: 0\r\nConnection: keep-alive\r\n\r\n"))
        let closing = encoded(HTTPResponse(status: .ok), version: .http1_0, close: true)
        #expect(closing.hasSuffix("Content-Length: 0\r\nConnection: close\r\n\r\n"))
    }

    /// Rule 27 (RFC 9112 §11.1): nothing from input can start a new line. Invalid fields
    /// are dropped and counted.
    @Test(arguments: [
        ("X-Redirect", "a\r\nSet-Cookie: stolen=1"),
        ("X-Redirect", "a\nSet-Cookie: stolen=1"),
        ("X-Redirect", "a\rSet-Cookie: stolen=1"),
        ("X-Redirect", "a\u{0}b"),
        ("Set-Cookie: stolen=1\r\nX", "v"),
        ("Bad Name", "v"),
        ("", "v"),
    ])
    func dropsFieldsThatCouldSplitTheResponse(name: String, value: String) throws {
        var encoder = ResponseEncoder()
        let dropped = encoder.encode(
            HTTPResponse(
                status: .found, headers: HTTPHeaders([(name, value), ("Location", "/ok")])))
        #expect(dropped == 1)
        let text = String(decoding: encoder.bytes, as: UTF8.self)
        #expect(!text.contains("stolen"))
        #expect(text == "HTTP/1.1 302 Found\r\nLocation: /ok\r\nContent-Length: 0\r\n\r\n")
        // And what was written parses strictly.
        var parser = ResponseHeadParser()
        let head = try #require(try parser.parse(encoder.bytes, requestMethod: .get))
        #expect(head.headers.count == 2)
    }

    @Test func reasonPhraseWithControlsIsLeftOut() {
        let text = encoded(HTTPResponse(status: HTTPStatus(code: 200, reasonPhrase: "OK\r\nX: y")))
        #expect(text.hasPrefix("HTTP/1.1 200 \r\n"))
    }

    @Test func bufferIsReusedWithoutLeftovers() {
        var encoder = ResponseEncoder()
        encoder.encode(HTTPResponse(status: .ok, body: Array(repeating: 0x41, count: 500)))
        let capacity = encoder.bytes.capacity
        encoder.encode(HTTPResponse(status: .noContent))
        #expect(encoder.bytes == Feeding.bytes("HTTP/1.1 204 No Content\r\n\r\n"))
        #expect(encoder.bytes.capacity == capacity)
        encoder.releaseBuffer()
        #expect(encoder.bytes.isEmpty)
    }

    @Test func continueResponseIsTheInterimStatusLine() {
        #expect(ResponseEncoder.continueResponse == Feeding.bytes("HTTP/1.1 100 Continue\r\n\r\n"))
    }

    @Test(arguments: [0, 7, 10, 99, 100, 65536, 1_000_001])
    func encodedResponsesParseBack(bodySize: Int) throws {
        var encoder = ResponseEncoder()
        let body = [UInt8](repeating: 0x7A, count: bodySize)
        encoder.encode(
            HTTPResponse(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: body),
            date: date)
        var parser = ResponseHeadParser(limits: HTTPLimits(maxBodyBytes: 2_000_000))
        let head = try #require(try parser.parse(encoder.bytes, requestMethod: .get))
        #expect(head.framing == (bodySize == 0 ? .none : .contentLength(bodySize)))
        #expect(head.headers["date"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(Array(encoder.bytes[head.byteCount...]) == body)
    }
}
