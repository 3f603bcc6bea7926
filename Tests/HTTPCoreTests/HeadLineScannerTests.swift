import Testing

@testable import HTTPCore

@Suite struct HeadLineScannerTests {
    private let roomy = HeadLineScanner.LineLimits(
        maxLineBytes: 100, lineTooLong: .requestLineTooLong, blockStart: 0, maxBlockBytes: 100,
        blockTooLarge: .headerTooLarge)

    @Test func resumesWhereItStopped() throws {
        let bytes = Array("ab\r\ncd\r\n".utf8)
        var scanner = HeadLineScanner()
        try bytes.withUnsafeBytes { all throws in
            #expect(
                try scanner.nextLine(
                    in: UnsafeRawBufferPointer(rebasing: all[0..<3]), limits: roomy) == nil)
            // Stopped on the CR: it cannot know yet whether LF follows.
            #expect(scanner.scanIndex == 2)
            #expect(try scanner.nextLine(in: all, limits: roomy) == 0..<2)
            #expect(try scanner.nextLine(in: all, limits: roomy) == 4..<6)
            #expect(try scanner.nextLine(in: all, limits: roomy) == nil)
            #expect(scanner.lineStart == 8)
        }
    }

    /// Limits count the CRLF; the line limit is checked before the block limit.
    @Test(arguments: [
        ("abcd\r\n", 6, 100, nil as HTTPParseError?),
        ("abcd\r\n", 5, 100, .requestLineTooLong),
        ("abcde", 5, 100, nil),
        ("abcdef", 5, 100, .requestLineTooLong),
        ("abcd\r\n", 100, 5, .headerTooLarge),
        ("abcd\r\n", 5, 5, .requestLineTooLong),
    ])
    func enforcesLimits(text: String, maxLine: Int, maxBlock: Int, error: HTTPParseError?) {
        let limits = HeadLineScanner.LineLimits(
            maxLineBytes: maxLine, lineTooLong: .requestLineTooLong, blockStart: 0,
            maxBlockBytes: maxBlock, blockTooLarge: .headerTooLarge)
        var scanner = HeadLineScanner()
        let result: Result<Range<Int>?, HTTPParseError> = Array(text.utf8).withUnsafeBytes { all in
            do throws(HTTPParseError) {
                return .success(try scanner.nextLine(in: all, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success: #expect(error == nil)
        case .failure(let thrown): #expect(thrown == error)
        }
    }
}
