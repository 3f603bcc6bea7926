import TestSupport
import Testing

@testable import HTTPCore

@Suite(.resourceClass(.compute)) struct HeadLineScannerTests {
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

    /// The scanner looks for CR and LF in a tight loop and enforces the limits where the
    /// loop stops; this checks it against the definition, a check of every byte before it
    /// is read, on random heads of `a`, CR and LF, random limits and random splits
    /// (20,000 cases under TOKENSWAP_VOLUME_TESTS=1, a sample of 2,000 otherwise).
    @Test func agreesWithAByteByByteScanOnRandomInputsLimitsAndSplits() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<Volume.count(20_000, sample: 2_000) {
            let bytes = (0..<random.next(below: 24)).map { _ in
                [UInt8(ascii: "a"), HTTPGrammar.cr, HTTPGrammar.lf, UInt8(ascii: "b")][
                    random.next(below: 4)]
            }
            let limits = HeadLineScanner.LineLimits(
                maxLineBytes: 1 + random.next(below: 10), lineTooLong: .requestLineTooLong,
                blockStart: random.next(below: 3),
                maxBlockBytes: random.next(below: 4) == 0 ? Int.max : 1 + random.next(below: 20),
                blockTooLarge: .headerTooLarge)
            // The bytes arrive in pieces: every call sees a longer prefix.
            var cuts = (0..<random.next(below: 4)).map { _ in random.next(below: bytes.count + 1) }
            cuts.append(bytes.count)
            cuts.sort()
            var scanner = HeadLineScanner()
            var reference = ByteByByteScanner()
            outer: for cut in cuts {
                let prefix = Array(bytes[..<cut])
                while true {
                    let got = prefix.withUnsafeBytes { all in
                        Self.outcome { () throws(HTTPParseError) in
                            try scanner.nextLine(in: all, limits: limits)
                        }
                    }
                    let expected = prefix.withUnsafeBytes { all in
                        Self.outcome { () throws(HTTPParseError) in
                            try reference.nextLine(in: all, limits: limits)
                        }
                    }
                    guard got == expected else {
                        Issue.record("\(bytes) cut at \(cut), \(limits): \(got) != \(expected)")
                        return
                    }
                    if case .success(.some) = got { continue }
                    if case .failure = got { break outer }
                    break
                }
            }
        }
    }

    private static func outcome(_ body: () throws(HTTPParseError) -> Range<Int>?)
        -> Result<Range<Int>?, HTTPParseError>
    {
        do throws(HTTPParseError) { return .success(try body()) } catch { return .failure(error) }
    }

    /// The definition: every byte's limits checked before it is read.
    private struct ByteByByteScanner {
        var lineStart = 0
        var scanIndex = 0

        mutating func nextLine(
            in bytes: UnsafeRawBufferPointer, limits: HeadLineScanner.LineLimits
        ) throws(HTTPParseError) -> Range<Int>? {
            var index = scanIndex
            while index < bytes.count {
                try check(index, limits)
                if bytes[index] == HTTPGrammar.lf { throw .bareLF }
                if bytes[index] == HTTPGrammar.cr {
                    guard index + 1 < bytes.count else {
                        scanIndex = index
                        return nil
                    }
                    try check(index + 1, limits)
                    guard bytes[index + 1] == HTTPGrammar.lf else { throw .bareCR }
                    let line = lineStart..<index
                    lineStart = index + 2
                    scanIndex = index + 2
                    return line
                }
                index += 1
            }
            scanIndex = index
            return nil
        }

        private func check(_ index: Int, _ limits: HeadLineScanner.LineLimits)
            throws(HTTPParseError)
        {
            if index - lineStart >= limits.maxLineBytes { throw limits.lineTooLong }
            if index - limits.blockStart >= limits.maxBlockBytes { throw limits.blockTooLarge }
        }
    }
}
