import Testing

@testable import HTTPCore

/// The framing rules both head parsers take from `FieldSemantics`.
@Suite struct FieldSemanticsFramingTests {
    @Test(arguments: [
        (["Content-Length: 5"], nil as HTTPParseError?),
        ([], nil),
        (["Content-Length: 5", "Content-Length: 5"], .duplicateContentLength),
        (["Content-Length: 5, 5"], .duplicateContentLength),
        (["Content-Length: +5"], .invalidContentLength),
        (["Content-Length: 5x"], .invalidContentLength),
    ])
    func contentLength(fields: [String], error: HTTPParseError?) {
        let result = Self.judge(fields) { facts throws(HTTPParseError) in
            try facts.checkContentLength()
            return nil
        }
        #expect(result == error.map { .failure($0) } ?? .success(nil))
    }

    @Test(arguments: [
        (["Transfer-Encoding: chunked"], Result<BodyFraming?, HTTPParseError>.success(.chunked)),
        (["Transfer-Encoding: gzip, chunked"], .failure(.unknownTransferCoding)),
        (["Transfer-Encoding: chunked, gzip"], .failure(.chunkedNotLast)),
        (["Transfer-Encoding: gzip"], .failure(.unknownTransferCoding)),
        (["Transfer-Encoding: chunked, chunked"], .failure(.chunkedNotLast)),
        (["Transfer-Encoding: ,"], .failure(.invalidTransferEncoding)),
    ])
    func transferCoding(fields: [String], expected: Result<BodyFraming?, HTTPParseError>) {
        let result = Self.judge(fields) { facts throws(HTTPParseError) in
            try facts.transferCodingFraming()
        }
        #expect(result == expected)
    }

    /// Gathers `fields` (one head's field lines) and applies `rule`.
    private static func judge(
        _ fields: [String], _ rule: (FieldSemantics) throws(HTTPParseError) -> BodyFraming?
    ) -> Result<BodyFraming?, HTTPParseError> {
        let head = Array(fields.map { $0 + "\r\n" }.joined().utf8)
        return head.withUnsafeBytes { bytes in
            var ranges: [FieldRange] = []
            var start = 0
            for field in fields {
                let line = start..<(start + field.utf8.count)
                if let range = try? FieldLine.parse(bytes, line, isFirst: ranges.isEmpty) {
                    ranges.append(range)
                }
                start = line.upperBound + 2
            }
            do throws(HTTPParseError) {
                return .success(try rule(FieldSemantics(bytes, ranges)))
            } catch {
                return .failure(error)
            }
        }
    }
}
