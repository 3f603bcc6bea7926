import Foundation
import TestSupport
import Testing

/// Logging never stalls the service: with stdout piped into a reader that stops reading,
/// `/healthz` keeps answering; lines that do not fit the queue are dropped and counted
/// (`tokenswap_log_lines_dropped_total`), and a warning says how many once the reader
/// is back. Before the log queue, the service answered about 500 requests (a 64 KiB pipe
/// of lines) and then nothing.
@Suite(.resourceClass(.processes)) struct StalledLogReaderTests {
    /// Far more lines than the pipe (64 KiB) and the queue (256 KiB) hold together.
    static let requests = 3000

    @Test func healthzKeepsAnsweringWhileStdoutIsNotRead() async throws {
        let server = try await TokenSwapProcess.serve(
            ["--sandbox"], environment: ["TOKENSWAP_LOG_FORMAT": "json"])
        server.process.stdout.pauseReading()
        let started = Date()
        for index in 0..<Self.requests {
            let answer = try await Exchange.request("GET", "/healthz", port: server.port)
            try #require(answer.status == 200, "request \(index) while stdout was not read")
        }
        let seconds = Date().timeIntervalSince(started)
        let metrics = try await Exchange.request("GET", "/metrics", port: server.port)
        let dropped = Self.counter("tokenswap_log_lines_dropped_total", in: metrics.body)
        #expect((dropped ?? 0) > 0, "lines were dropped and counted: \(dropped ?? -1)")
        print(
            "stalled log reader: \(Self.requests) /healthz in \(Int(seconds)) s,"
                + " \(dropped ?? -1) lines dropped")

        server.process.stdout.resumeReading()
        try? await pollUntil(every: .milliseconds(100)) {
            server.standardOutput.contains("log lines dropped")
        }
        let notice = server.standardOutput.split(separator: "\n").first {
            $0.contains("log lines dropped")
        }
        #expect(
            notice?.contains(#""dropped":""#) == true, "a JSON line says how many: \(notice ?? "")")
        #expect(try await server.stop() == 0)
    }

    static func counter(_ name: String, in exposition: String) -> Int? {
        exposition.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) }
    }
}
