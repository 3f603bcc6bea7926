import HTTPCore
import Testing

@testable import HTTPClient

/// Response framing against the stub (a real peer), then the reader alone on bytes split
/// at every position.
@Suite(.resourceClass(.integration)) struct ResponseReaderTests {
    static func fetch(_ path: String, _ adjust: (inout HTTPClientConfiguration) -> Void = { _ in })
        async throws -> HTTPResponse
    {
        let stub = try await UpstreamStub.start()
        var configuration = HTTPClientConfiguration()
        adjust(&configuration)
        let client = try HTTPClient(configuration: configuration)
        defer { client.shutdown() }
        let request = try HTTPClientRequest(
            method: .get, url: "http://127.0.0.1:\(stub.port)\(path)")
        return try await client.send(request, timeoutSeconds: 30)
    }

    static func failure(_ path: String) async throws -> HTTPClientError? {
        do {
            _ = try await fetch(path)
            return nil
        } catch let error as HTTPClientError {
            return error
        }
    }

    @Test func decodesChunkedBody() async throws {
        let response = try await Self.fetch("/chunked")
        #expect(String(decoding: response.body, as: UTF8.self) == "hello, chunked world")
    }

    @Test func readsCloseDelimitedBody() async throws {
        let response = try await Self.fetch("/close-delimited")
        #expect(String(decoding: response.body, as: UTF8.self) == "until the end")
    }

    @Test func acceptsBodyAtTheLimit() async throws {
        let response = try await Self.fetch("/big?bytes=\(1024 * 1024)")
        #expect(response.body.count == 1024 * 1024)
    }

    @Test func refusesBodyOverTheLimit() async throws {
        #expect(
            try await Self.failure("/big?bytes=\(1024 * 1024 + 1)")
                == .responseTooLarge(limitBytes: 1024 * 1024))
    }

    @Test(arguments: ["/truncated", "/truncated-chunked"])
    func closeMidBodyIsAnErrorNotAShortSuccess(path: String) async throws {
        let error = try await Self.failure(path)
        guard case .protocolError = error else {
            Issue.record("expected protocolError, got \(String(describing: error))")
            return
        }
    }

    @Test func nonHTTPAnswerIsAProtocolError() async throws {
        let error = try await Self.failure("/garbage")
        guard case .protocolError = error else {
            Issue.record("expected protocolError, got \(String(describing: error))")
            return
        }
    }

    static let wire = Array(
        ("HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n"
            + "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nHTTP/1.1").utf8)

    /// Fed in two pieces split at every byte: same response, same leftover.
    @Test func splitAtEveryByteGivesTheSameResponse() throws {
        for split in 0...Self.wire.count {
            var reader = ResponseReader(method: .get, limits: .upstreamResponse)
            var buffer = Array(Self.wire[..<split])
            var done = try reader.consume(&buffer)
            buffer += Self.wire[split...]
            if !done { done = try reader.consume(&buffer) }
            #expect(done)
            #expect(reader.response.status.code == 200)
            #expect(reader.response.headers["x-a"] == "1")
            #expect(reader.response.body == Array("abcde".utf8))
            #expect(buffer == Array("HTTP/1.1".utf8))
            #expect(reader.keepAlive)
        }
    }

    @Test func headResponseHasNoBodyWhateverItsLengthSays() throws {
        var reader = ResponseReader(method: .head, limits: .upstreamResponse)
        var buffer = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)
        #expect(try reader.consume(&buffer))
        #expect(reader.response.body.isEmpty)
    }

    @Test func oversizedHeadIsTooLarge() {
        var limits = HTTPLimits.upstreamResponse
        limits.maxHeaderBytes = 64
        var reader = ResponseReader(method: .get, limits: limits)
        var buffer = Array(
            ("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 100) + "\r\n\r\n").utf8)
        #expect(throws: HTTPClientError.responseTooLarge(limitBytes: 64)) {
            _ = try reader.consume(&buffer)
        }
    }

    @Test func endOfStreamCompletesOnlyACloseDelimitedBody() throws {
        var closeDelimited = ResponseReader(method: .get, limits: .upstreamResponse)
        var buffer = Array("HTTP/1.1 200 OK\r\n\r\npartial".utf8)
        #expect(try closeDelimited.consume(&buffer) == false)
        try closeDelimited.finishAtEndOfStream()
        #expect(closeDelimited.response.body == Array("partial".utf8))
        #expect(closeDelimited.keepAlive == false)

        var counted = ResponseReader(method: .get, limits: .upstreamResponse)
        var short = Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\npartial".utf8)
        #expect(try counted.consume(&short) == false)
        #expect(throws: HTTPClientError.self) { try counted.finishAtEndOfStream() }
    }
}
