import Logging
import Synchronization
import Testing

@testable import TokenSwap

@Suite struct ServiceLogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    static func logger(_ level: LogLevelSetting, _ format: LogFormat, into lines: Lines) -> Logger {
        Logger(label: "test") { label in
            ServiceLogHandler(label: label, level: level, format: format) { lines.append($0) }
        }
    }

    @Test func textLineHasLevelMessageAndSortedFields() throws {
        let lines = Lines()
        Self.logger(.info, .text, into: lines).info(
            "token request", metadata: ["status": "200", "path": "/v1/swap", "note": "two words"])
        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        #expect(
            line.hasSuffix(
                #" info "token request" note="two words" path=/v1/swap status=200"# + "\n"))
    }

    @Test func jsonLineIsOneParsableObject() throws {
        let lines = Lines()
        Self.logger(.debug, .json, into: lines).warning(
            "upstream slow", metadata: ["provider": "spotify"])
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix("\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        let object = try JSONParser.parse(Array(line.dropLast().utf8))
        #expect(object["level"]?.stringValue == "warning")
        #expect(object["message"]?.stringValue == "upstream slow")
        #expect(object["provider"]?.stringValue == "spotify")
        #expect(object["time"]?.stringValue?.isEmpty == false)
    }

    @Test(arguments: [LogFormat.text, .json])
    func newlinesInValuesCannotStartANewLine(format: LogFormat) {
        let lines = Lines()
        Self.logger(.info, format, into: lines).info(
            "x", metadata: ["path": "/a\n2026-01-01 error forged=1", "k=v": "a\"b"])
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [
        (LogLevelSetting.debug, 4), (.info, 3), (.warning, 2), (.error, 1),
    ])
    func levelFilters(level: LogLevelSetting, expected: Int) {
        let lines = Lines()
        let logger = Self.logger(level, .text, into: lines)
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        logger.trace("t")
        #expect(lines.all.count == expected)
    }
}
