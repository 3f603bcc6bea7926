import Testing

@testable import HTTPCore

@Suite struct FieldSectionTests {
    /// What one scan of a field section ends in.
    enum Outcome: Equatable {
        case complete(fieldCount: Int)
        case needsMore(fieldCount: Int)
        case failed(HTTPParseError)
    }

    /// The start line before the section never counts toward the section's limits.
    private static let startLine = "GET / HTTP/1.1\r\n"

    /// Limits count each line's CRLF, and the section's the final empty line too.
    @Test(arguments: [
        ("A: 1\r\nB: 2\r\n\r\n", HTTPLimits(), Outcome.complete(fieldCount: 2)),
        ("A: 1\r\nB: 2\r\n", HTTPLimits(), .needsMore(fieldCount: 2)),
        ("A: 1\r\nB:", HTTPLimits(), .needsMore(fieldCount: 1)),
        ("\r\n", HTTPLimits(), .complete(fieldCount: 0)),
        ("A: 1\r\nB: 2\r\n\r\n", HTTPLimits(maxHeaderFields: 2), .complete(fieldCount: 2)),
        ("A: 1\r\nB: 2\r\n\r\n", HTTPLimits(maxHeaderFields: 1), .failed(.tooManyHeaderFields)),
        ("A: 1\r\n\r\n", HTTPLimits(maxHeaderLineBytes: 6), .complete(fieldCount: 1)),
        ("A: 12\r\n\r\n", HTTPLimits(maxHeaderLineBytes: 6), .failed(.headerLineTooLong)),
        ("A: 1\r\n\r\n", HTTPLimits(maxHeaderBytes: 8), .complete(fieldCount: 1)),
        ("A: 1\r\n\r\n", HTTPLimits(maxHeaderBytes: 7), .failed(.headerTooLarge)),
        (" A: 1\r\n\r\n", HTTPLimits(), .failed(.whitespaceBeforeFirstHeader)),
        ("A: 1\r\n B\r\n\r\n", HTTPLimits(), .failed(.obsFold)),
        ("A : 1\r\n\r\n", HTTPLimits(), .failed(.spaceBeforeColon)),
        ("A: 1\n\r\n", HTTPLimits(), .failed(.bareLF)),
    ])
    func scansUnderTheLimits(section: String, limits: HTTPLimits, expected: Outcome) {
        let head = Array((Self.startLine + section).utf8)
        #expect(Self.scan(head, limits: limits) == expected)
    }

    /// Fed one byte at a time, the section ends the same way as when fed whole.
    @Test(arguments: [
        "A: 1\r\nB: 2\r\n\r\n", "A: 12\r\n\r\n", "A: 1\r\nB: 2\r\nC: 3\r\n\r\n",
    ])
    func splitInputEndsAlike(section: String) {
        let limits = HTTPLimits(maxHeaderLineBytes: 6, maxHeaderFields: 2)
        let head = Array((Self.startLine + section).utf8)
        var scanner = HeadLineScanner()
        var fields = FieldSection()
        var outcome = Outcome.needsMore(fieldCount: 0)
        head.withUnsafeBytes { all in
            for end in Self.startLine.utf8.count...all.count {
                outcome = Self.step(
                    &fields, &scanner, UnsafeRawBufferPointer(rebasing: all[0..<end]), limits)
                if outcome != .needsMore(fieldCount: fields.fields.count) { return }
            }
        }
        #expect(outcome == Self.scan(head, limits: limits))
    }

    private static func scan(_ head: [UInt8], limits: HTTPLimits) -> Outcome {
        var scanner = HeadLineScanner()
        var fields = FieldSection()
        return head.withUnsafeBytes { step(&fields, &scanner, $0, limits) }
    }

    /// Skips the start line on a fresh scanner, then scans the section once.
    private static func step(
        _ section: inout FieldSection, _ scanner: inout HeadLineScanner,
        _ bytes: UnsafeRawBufferPointer, _ limits: HTTPLimits
    ) -> Outcome {
        do throws(HTTPParseError) {
            if scanner.lineStart == 0 {
                _ = try scanner.nextLine(
                    in: bytes, limits: .startLine(maxBytes: 100, tooLong: .requestLineTooLong))
                section.begin(at: scanner.lineStart)
            }
            let done = try section.scan(bytes, with: &scanner, limits: limits)
            return done
                ? .complete(fieldCount: section.fields.count)
                : .needsMore(fieldCount: section.fields.count)
        } catch {
            return .failed(error)
        }
    }
}
