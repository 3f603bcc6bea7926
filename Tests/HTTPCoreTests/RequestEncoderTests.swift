import HTTPCore
import Testing

@Suite struct RequestEncoderTests {
    @Test func writesATokenRequest() throws {
        var encoder = RequestEncoder()
        let request = HTTPRequest(
            method: .post, target: "/api/token",
            headers: HTTPHeaders([
                ("Authorization", "Basic aWQ6c2VjcmV0"),
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Host", "ignored.example"), ("Content-Length", "1"),
            ]),
            body: Array("grant_type=x".utf8))
        try encoder.encode(request, host: "accounts.example:443")
        #expect(
            String(decoding: encoder.bytes, as: UTF8.self)
                == "POST /api/token HTTP/1.1\r\nHost: accounts.example:443\r\n"
                + "Authorization: Basic aWQ6c2VjcmV0\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: 12\r\n\r\ngrant_type=x")
    }

    @Test(arguments: [
        (HTTPMethod.get, [UInt8](), false),
        (HTTPMethod.post, [UInt8](), true),
        (HTTPMethod.get, Array("x".utf8), true),
    ])
    func contentLengthWhenTheMethodOrBodyCallsForIt(
        method: HTTPMethod, body: [UInt8], hasLength: Bool
    ) throws {
        var encoder = RequestEncoder()
        try encoder.encode(HTTPRequest(method: method, target: "/", body: body), host: "a")
        let text = String(decoding: encoder.bytes, as: UTF8.self)
        #expect(text.contains("Content-Length: \(body.count)\r\n") == hasLength)
    }

    @Test(arguments: [
        (
            HTTPRequest(method: HTTPMethod(rawValue: "GE T"), target: "/"), "a",
            HTTPEncodingError.invalidMethod
        ),
        (HTTPRequest(method: .get, target: "/a b"), "a", .invalidTarget),
        (HTTPRequest(method: .get, target: "/a\r\nX: y"), "a", .invalidTarget),
        (HTTPRequest(method: .get, target: ""), "a", .invalidTarget),
        (HTTPRequest(method: .get, target: "/"), "a/b", .invalidHost),
        (HTTPRequest(method: .get, target: "/"), "", .invalidHost),
        (HTTPRequest(method: .get, target: "/"), "a\r\nX: y", .invalidHost),
        (
            HTTPRequest(method: .get, target: "/", headers: HTTPHeaders([("X", "secret\r\nY: z")])),
            "a", .invalidFieldValue(name: "X")
        ),
        (
            HTTPRequest(method: .get, target: "/", headers: HTTPHeaders([("X Y", "v")])), "a",
            .invalidFieldName("X Y")
        ),
    ])
    func refusesWhatCouldSplitTheRequest(
        request: HTTPRequest, host: String, error: HTTPEncodingError
    ) {
        var encoder = RequestEncoder()
        #expect(throws: error) { try encoder.encode(request, host: host) }
        #expect(encoder.bytes.isEmpty)
    }

    @Test func encodedRequestsParseBack() throws {
        var encoder = RequestEncoder()
        let request = HTTPRequest(
            method: .post, target: "/v1/refresh",
            headers: HTTPHeaders([("Accept", "application/json")]), body: Array("a=b".utf8))
        try encoder.encode(request, host: "127.0.0.1:8080")
        var parser = RequestHeadParser()
        let head = try #require(try parser.parse(encoder.bytes))
        #expect(head.method == .post)
        #expect(head.target == "/v1/refresh")
        #expect(head.headers["host"] == "127.0.0.1:8080")
        #expect(head.headers["accept"] == "application/json")
        #expect(head.framing == .contentLength(3))
        #expect(Array(encoder.bytes[head.byteCount...]) == Array("a=b".utf8))
    }
}
