import HTTPCore
import Testing

/// Small limits so that limit cases stay short enough to split at every byte.
private let small = HTTPLimits(
    maxRequestLineBytes: 40, maxHeaderLineBytes: 40, maxHeaderBytes: 100, maxHeaderFields: 4,
    maxBodyBytes: 100)

/// One rule of shared/docs/HTTP1-RULES.md: the input and the error it must produce.
struct RejectCase: CustomTestStringConvertible, Sendable {
    let rule: Int
    let input: String
    let error: HTTPParseError
    var limits = HTTPLimits()

    var testDescription: String { "rule \(rule): \(input.debugDescription) -> \(error)" }
}

private let rejections: [RejectCase] = [
    // 1: method SP target SP version CRLF, single spaces (RFC 9112 §3)
    RejectCase(rule: 1, input: "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidRequestLine),
    RejectCase(rule: 1, input: "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", error: .invalidRequestLine),
    RejectCase(rule: 1, input: " GET / HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidRequestLine),
    RejectCase(rule: 1, input: "GET /\r\nHost: a\r\n\r\n", error: .invalidRequestLine),
    RejectCase(rule: 1, input: "GET\r\n\r\n", error: .invalidRequestLine),
    RejectCase(rule: 1, input: "GET / \r\n\r\n", error: .invalidVersion),
    // 2: at most one empty line before the request line (§2.2)
    RejectCase(
        rule: 2, input: "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        error: .tooManyLeadingEmptyLines),
    RejectCase(rule: 2, input: "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", error: .bareLF),
    // 3: the method is a token (§3.1)
    RejectCase(rule: 3, input: "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidMethod),
    RejectCase(rule: 3, input: "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidMethod),
    RejectCase(rule: 3, input: "GÉT / HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidMethod),
    // 4: HTTP/ DIGIT . DIGIT (§2.3)
    RejectCase(rule: 4, input: "GET / HTTP/1.32\r\nHost: a\r\n\r\n", error: .invalidVersion),
    RejectCase(rule: 4, input: "GET / HTTP/1\r\nHost: a\r\n\r\n", error: .invalidVersion),
    RejectCase(rule: 4, input: "GET / http/1.1\r\nHost: a\r\n\r\n", error: .invalidVersion),
    RejectCase(rule: 4, input: "GET / HTTP/1.x\r\nHost: a\r\n\r\n", error: .invalidVersion),
    RejectCase(rule: 4, input: "GET / HTTP/11.1\r\nHost: a\r\n\r\n", error: .invalidVersion),
    RejectCase(rule: 4, input: "GET / HTTP/2.0\r\nHost: a\r\n\r\n", error: .unsupportedVersion),
    RejectCase(rule: 4, input: "GET / HTTP/0.9\r\nHost: a\r\n\r\n", error: .unsupportedVersion),
    // 5: target without whitespace; origin-form or absolute-form; too long -> 414 (§3.2)
    RejectCase(rule: 5, input: "GET /a\u{0}b HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET /a\tb HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET /é HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET 1http://a/ HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    // 5: absolute-form is exactly http(s)://authority path-abempty [?query] (§3.2.2);
    // each of these was once routed to the path hidden after the authority.
    RejectCase(
        rule: 5, input: "GET http://a?b/healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http://a#/metrics HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "POST x:/v1/swap HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET ftp://a/healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http:/healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http:healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http:///healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET http:// HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http://u@a/healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http://a\\b/healthz HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget
    ),
    RejectCase(
        rule: 5, input: "GET http://a%2/x HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET http://a%zz/x HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET https://a/x#y HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(rule: 5, input: "GET /healthz#x HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET a.example:80 HTTP/1.1\r\nHost: a\r\n\r\n", error: .invalidTarget),
    RejectCase(
        rule: 5, input: "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\n\r\n",
        error: .requestLineTooLong, limits: small),
    RejectCase(
        rule: 5, input: "GET /" + String(repeating: "a", count: 60), error: .requestLineTooLong,
        limits: small),
    // 6: CRLF only (§2.2)
    RejectCase(rule: 6, input: "GET /\nHTTP/1.1\r\nHost: a\r\n\r\n", error: .bareLF),
    RejectCase(rule: 6, input: "GET / HTTP/1.1\nHost: a\r\n\r\n", error: .bareLF),
    RejectCase(rule: 6, input: "GET / HTTP/1.1\r\nHost: a\n\r\n", error: .bareLF),
    RejectCase(rule: 6, input: "GET / HTTP/1.1\r\nHost: a\r\n\n", error: .bareLF),
    RejectCase(rule: 6, input: "GET / HTTP/1.1\rHost: a\r\n\r\n", error: .bareCR),
    RejectCase(rule: 6, input: "GET / HTTP/1.1\r\nHost: a\r\n\r\r", error: .bareCR),
    // 7: whitespace before the first field (§2.2), the TAB smuggling payload
    RejectCase(
        rule: 7, input: "GET / HTTP/1.1\r\n\tHost: a\r\n\r\n", error: .whitespaceBeforeFirstHeader
    ),
    RejectCase(
        rule: 7, input: "GET / HTTP/1.1\r\n Host: a\r\n\r\n", error: .whitespaceBeforeFirstHeader),
    // 8: field name is a token, no space before the colon (§5.1)
    RejectCase(
        rule: 8, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length : 34\r\n\r\n",
        error: .spaceBeforeColon),
    RejectCase(
        rule: 8, input: "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", error: .spaceBeforeColon),
    RejectCase(rule: 8, input: "GET / HTTP/1.1\r\nHo(st: a\r\n\r\n", error: .invalidFieldName),
    RejectCase(rule: 8, input: "GET / HTTP/1.1\r\n: a\r\n\r\n", error: .invalidFieldName),
    RejectCase(rule: 8, input: "GET / HTTP/1.1\r\nHost a\r\n\r\n", error: .invalidFieldName),
    RejectCase(rule: 8, input: "GET / HTTP/1.1\r\nHost\r\n\r\n", error: .invalidFieldName),
    // 9: obs-fold (§5.2)
    RejectCase(rule: 9, input: "GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n c\r\n\r\n", error: .obsFold),
    RejectCase(rule: 9, input: "GET / HTTP/1.1\r\nHost: a\r\n\tc\r\n\r\n", error: .obsFold),
    // 10: CR, LF, NUL (and other controls) in a value (RFC 9110 §5.5)
    RejectCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n",
        error: .invalidFieldValue),
    RejectCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", error: .bareCR),
    RejectCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: a\nb\r\n\r\n", error: .bareLF),
    RejectCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7F}\r\n\r\n",
        error: .invalidFieldValue),
    RejectCase(
        rule: 10, input: "GET / HTTP/1.1\r\nHost: a\r\nX: \u{1B}[0m\r\n\r\n",
        error: .invalidFieldValue),
    // 11: limits on field lines, fields and the section (RFC 9110 §5.4)
    RejectCase(
        rule: 11, input: "GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 40) + "\r\n\r\n",
        error: .headerLineTooLong, limits: small),
    RejectCase(
        rule: 11, input: "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
        error: .tooManyHeaderFields, limits: small),
    RejectCase(
        rule: 11,
        input: "GET / HTTP/1.1\r\n"
            + String(repeating: "X: " + String(repeating: "v", count: 30) + "\r\n", count: 4)
            + "\r\n",
        error: .headerTooLarge, limits: small),
    // 12: exactly one valid Host in HTTP/1.1 (§3.2)
    RejectCase(rule: 12, input: "GET / HTTP/1.1\r\n\r\n", error: .missingHost),
    RejectCase(
        rule: 12, input: "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", error: .duplicateHost),
    RejectCase(
        rule: 12, input: "GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", error: .duplicateHost),
    RejectCase(rule: 12, input: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", error: .invalidHost),
    RejectCase(rule: 12, input: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", error: .invalidHost),
    RejectCase(rule: 12, input: "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n", error: .invalidHost),
    // 13: Transfer-Encoding with Content-Length (§6.1, §6.3)
    RejectCase(
        rule: 13,
        input:
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
        error: .transferEncodingWithContentLength),
    // 14: Transfer-Encoding in HTTP/1.0 (§6.1)
    RejectCase(
        rule: 14, input: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        error: .transferEncodingInHTTP10),
    // 15: only exactly chunked (§6.3)
    RejectCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        error: .unknownTransferCoding),
    RejectCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        error: .unknownTransferCoding),
    RejectCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        error: .chunkedNotLast),
    RejectCase(
        rule: 15,
        input:
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
        error: .chunkedNotLast),
    RejectCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: ,\r\n\r\n",
        error: .invalidTransferEncoding),
    RejectCase(
        rule: 15, input: "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;a=b\r\n\r\n",
        error: .unknownTransferCoding),
    // 16: Content-Length is 1*DIGIT (RFC 9110 §8.6)
    RejectCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x10\r\n\r\n",
        error: .invalidContentLength),
    RejectCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\n",
        error: .invalidContentLength),
    RejectCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        error: .invalidContentLength),
    RejectCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 0\r\n\r\n",
        error: .invalidContentLength),
    RejectCase(
        rule: 16, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n",
        error: .invalidContentLength),
    RejectCase(
        rule: 16,
        input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        error: .invalidContentLength),
    // 17: more than one Content-Length (§6.3)
    RejectCase(
        rule: 17,
        input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
        error: .duplicateContentLength),
    RejectCase(
        rule: 17, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\n",
        error: .duplicateContentLength),
    // 19: declared body over the limit, decided from the head (RFC 9110 §15.5.14)
    RejectCase(
        rule: 19, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n",
        error: .contentTooLarge, limits: small),
    RejectCase(
        rule: 19, input: "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 65537\r\n\r\n",
        error: .contentTooLarge),
    // 24: unknown expectation (RFC 9110 §10.1.1)
    RejectCase(
        rule: 24, input: "POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n",
        error: .unknownExpectation),
]

@Suite struct RequestHeadParserTests {
    @Test(arguments: rejections)
    func rejectsTheSameWayHoweverSplit(_ rule: RejectCase) {
        let outcomes = RequestOutcome.allFeedings(Feeding.bytes(rule.input), limits: rule.limits)
        #expect(outcomes == [.failed(rule.error)])
    }

    @Test func errorsCarryTheStatusOfTheirRule() {
        let table: [(HTTPParseError, Int)] = [
            (.invalidRequestLine, 400), (.requestLineTooLong, 414), (.unsupportedVersion, 505),
            (.bareLF, 400), (.obsFold, 400), (.headerLineTooLong, 431),
            (.tooManyHeaderFields, 431), (.headerTooLarge, 431), (.missingHost, 400),
            (.transferEncodingWithContentLength, 400), (.unknownTransferCoding, 501),
            (.chunkedNotLast, 400), (.duplicateContentLength, 400), (.contentTooLarge, 413),
            (.unknownExpectation, 417), (.invalidChunkSize, 400), (.trailersTooLarge, 431),
        ]
        for (error, code) in table {
            #expect(error.status.code == code, "\(error)")
        }
    }

    @Test func defaultLimitsMatchTheDocumentedValues() {
        let limits = HTTPLimits()
        #expect(limits.maxRequestLineBytes == 8192)
        #expect(limits.maxHeaderBytes == 16384)
        #expect(limits.maxHeaderFields == 100)
        #expect(limits.maxBodyBytes == 65536)
        #expect(HTTPLimits.upstreamResponse.maxBodyBytes == 1_048_576)
    }

    @Test func defaultLimitsApplyToLongHeads() {
        let longTarget = "GET /" + String(repeating: "a", count: 8200) + " HTTP/1.1\r\n\r\n"
        var parser = RequestHeadParser()
        #expect(throws: HTTPParseError.requestLineTooLong) {
            try parser.parse(Feeding.bytes(longTarget))
        }
        let manyFields =
            "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: 1\r\n", count: 100) + "\r\n"
        parser.reset()
        #expect(throws: HTTPParseError.tooManyHeaderFields) {
            try parser.parse(Feeding.bytes(manyFields))
        }
        let bigSection =
            "GET / HTTP/1.1\r\nHost: a\r\n"
            + String(repeating: "X: " + String(repeating: "v", count: 4000) + "\r\n", count: 5)
            + "\r\n"
        parser.reset()
        #expect(throws: HTTPParseError.headerTooLarge) {
            try parser.parse(Feeding.bytes(bigSection))
        }
    }
}
