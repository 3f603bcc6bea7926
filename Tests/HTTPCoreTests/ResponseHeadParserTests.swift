import HTTPCore
import Testing

enum ResponseOutcome: Hashable {
    case head(ResponseHead)
    case failed(HTTPParseError)
    case incomplete

    static func parse(
        _ input: [UInt8], schedule: [Int], method: HTTPMethod, limits: HTTPLimits
    ) -> ResponseOutcome {
        var parser = ResponseHeadParser(limits: limits)
        return input.withUnsafeBytes { all in
            for end in schedule {
                do throws(HTTPParseError) {
                    let prefix = UnsafeRawBufferPointer(rebasing: all[0..<end])
                    if let head = try parser.parse(prefix, requestMethod: method) {
                        return .head(head)
                    }
                } catch {
                    return .failed(error)
                }
            }
            return .incomplete
        }
    }

    static func allFeedings(
        _ input: [UInt8], method: HTTPMethod, limits: HTTPLimits = .upstreamResponse
    ) -> Set<ResponseOutcome> {
        Set(
            Feeding.schedules(count: input.count).map {
                parse(input, schedule: $0, method: method, limits: limits)
            })
    }
}

struct ResponseCase: CustomTestStringConvertible, Sendable {
    let input: String
    var method = HTTPMethod.get
    var status = 200
    var framing = BodyFraming.none
    var keepAlive = true
    var error: HTTPParseError? = nil

    var testDescription: String { "\(method) -> \(input.debugDescription)" }
}

private let responses: [ResponseCase] = [
    // RFC 9112 §6.3 rule 6: Content-Length
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", framing: .contentLength(2)),
    ResponseCase(input: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", framing: .none),
    // rule 1: HEAD, 1xx, 204, 304 have no body whatever their fields say
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n", method: .head, framing: .none),
    ResponseCase(input: "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", status: 204),
    ResponseCase(
        input: "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", status: 304),
    ResponseCase(input: "HTTP/1.1 100 Continue\r\n\r\n", status: 100),
    // rule 4: chunked
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", framing: .chunked),
    // rule 8: otherwise until close, and the connection cannot be reused
    ResponseCase(input: "HTTP/1.1 200 OK\r\n\r\n", framing: .untilClose, keepAlive: false),
    // persistence (§9.3)
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\n",
        framing: .contentLength(1), keepAlive: false),
    ResponseCase(
        input: "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n", framing: .contentLength(1),
        keepAlive: false),
    ResponseCase(
        input: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\n",
        framing: .contentLength(1), keepAlive: true),
    // status line shape (§4): reason may be empty, the SP before it may not be omitted
    ResponseCase(input: "HTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n", status: 404),
    ResponseCase(input: "HTTP/1.1 200\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1 20 OK\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1 2000 OK\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1 600 Odd\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1 099 Odd\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1  200 OK\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/1.1 200 O\u{0}K\r\n\r\n", error: .invalidStatusLine),
    ResponseCase(input: "HTTP/2.0 200 OK\r\n\r\n", error: .unsupportedVersion),
    ResponseCase(input: "HTTP/1.32 200 OK\r\n\r\n", error: .invalidVersion),
    ResponseCase(input: "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", error: .bareLF),
    // fields and framing, strictly
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n",
        error: .duplicateContentLength),
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nContent-Length: 0x2\r\n\r\n", error: .invalidContentLength),
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n",
        error: .transferEncodingWithContentLength),
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", error: .unknownTransferCoding),
    ResponseCase(
        input: "HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n", error: .contentTooLarge),
    ResponseCase(input: "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", error: .obsFold),
    ResponseCase(input: "HTTP/1.1 200 OK\r\nX : a\r\n\r\n", error: .spaceBeforeColon),
]

@Suite struct ResponseHeadParserTests {
    @Test(arguments: responses)
    func parsesTheSameWayHoweverSplit(_ rule: ResponseCase) throws {
        let input = Feeding.bytes(rule.input)
        let outcomes = ResponseOutcome.allFeedings(input, method: rule.method)
        #expect(outcomes.count == 1)
        let outcome = try #require(outcomes.first)
        if let error = rule.error {
            #expect(outcome == .failed(error))
            return
        }
        guard case .head(let head) = outcome else {
            Issue.record("expected a head, got \(outcome)")
            return
        }
        #expect(head.status.code == rule.status)
        #expect(head.framing == rule.framing)
        #expect(head.keepAlive == rule.keepAlive)
        #expect(head.byteCount == input.count)
    }

    @Test func interimResponseIsFollowedByTheFinalOne() throws {
        let buffer = Feeding.bytes(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\n\r\n{}")
        var parser = ResponseHeadParser()
        let interim = try #require(try parser.parse(buffer, requestMethod: .post))
        #expect(interim.isInformational)
        let final = try #require(
            try parser.parse(buffer, from: interim.byteCount, requestMethod: .post))
        #expect(!final.isInformational)
        #expect(final.status == HTTPStatus(code: 200, reasonPhrase: "OK"))
        #expect(final.headers["content-type"] == "application/json")
        #expect(interim.byteCount + final.byteCount + 2 == buffer.count)
    }

    @Test func headLimitsApply() {
        var parser = ResponseHeadParser()
        let big =
            "HTTP/1.1 200 OK\r\n"
            + String(repeating: "X: " + String(repeating: "v", count: 4000) + "\r\n", count: 5)
        #expect(throws: HTTPParseError.headerTooLarge) {
            try parser.parse(Feeding.bytes(big), requestMethod: .get)
        }
        parser.reset()
        let longStatus = "HTTP/1.1 200 " + String(repeating: "K", count: 8200)
        #expect(throws: HTTPParseError.statusLineTooLong) {
            try parser.parse(Feeding.bytes(longStatus), requestMethod: .get)
        }
        #expect(HTTPParseError.statusLineTooLong.status.code == 502)
    }
}
