import Foundation
import HTTPCore
import HTTPServer
import TLS
import TestSupport
import Testing

/// The server's connections over TLS (ConnectionStream), driven by `curl`: bodies that
/// span many TLS records each way, keep-alive reuse, `Expect: 100-continue`, a 413 and
/// its lingering close with close_notify, all through the same connection logic as
/// plain HTTP.
@Suite(.resourceClass(.integration)) struct HTTPSConnectionTests {
    static func store() async throws -> (TLSServerContextStore, caFile: String) {
        let pki = try await offPool { TestPKI.shared }
        let store = try TLSServerContextStore(
            certificateChainFile: pki.cert("good"), keyFile: pki.key("good"))
        return (store, pki.caFile)
    }

    static func curl(_ arguments: [String], caFile: String) async throws -> (
        status: ChildProcess.ExitStatus, stdout: String, stderr: String
    ) {
        try await offPool {
            try ChildProcess.run(
                "/usr/bin/env", ["curl", "-sS", "--cacert", caFile] + arguments,
                timeoutSeconds: 30)
        }
    }

    @Test func bodiesAcrossManyRecordsOnOneKeptAliveConnection() async throws {
        let (store, caFile) = try await Self.store()
        let bodyFile = NSTemporaryDirectory() + "tokenswap-https-body-\(UUID().uuidString)"
        // 60 KB: four TLS records in, four out; printable so curl's output is text.
        let body = String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 2300)
        try body.write(toFile: bodyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bodyFile) }
        try await TestServer.with({ $0.tls = store }) { _, port in
            let url = "https://localhost:\(port)/echo"
            let echoed = try await Self.curl(
                [
                    "-H", "Expect: 100-continue", "-H", "Content-Type: text/plain",
                    "--data-binary", "@\(bodyFile)", url, url,
                    "-w", "|%{http_code}|%{num_connects}",
                ], caFile: caFile)
            #expect(echoed.status == .exited(0), "\(echoed.stderr)")
            // Two answers, the second on the first's connection (0 new connects).
            #expect(echoed.stdout == body + "|200|1" + body + "|200|0")
        }
    }

    @Test func aLargeResponseAndATooLargeRequestOverTLS() async throws {
        let (store, caFile) = try await Self.store()
        try await TestServer.with({ $0.tls = store }) { _, port in
            let big = try await Self.curl(
                [
                    "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                    "https://localhost:\(port)/big",
                ], caFile: caFile)
            #expect(big.stdout == "200 \(8 * 1024 * 1024)", "\(big.stderr)")

            // Over the 64 KiB body limit: 413 decided from Content-Length, then the
            // lingering close ends the TLS stream with close_notify (curl reports no
            // truncation).
            let tooLarge = try await Self.curl(
                [
                    "-o", "/dev/null", "-w", "%{http_code}", "--data-binary",
                    String(repeating: "x", count: 70 * 1024), "https://localhost:\(port)/echo",
                ],
                caFile: caFile)
            #expect(tooLarge.status == .exited(0), "\(tooLarge.stderr)")
            #expect(tooLarge.stdout == "413")
        }
    }
}
