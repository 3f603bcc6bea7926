import Foundation
import Testing

/// Failures after the configuration is valid: the assembly's own start-up errors.
// Serialized: each test starts processes; the whole test run shares a 2-core machine with
// timing-sensitive suites, so the cases of a table go one after another, not all at once.
@Suite(.serialized, .resourceClass(.processes)) struct AssemblyStartupTests {
    @Test func aCAFileThatIsNotPEMNamesTheVariable() async throws {
        let file = NSTemporaryDirectory() + "tokenswap-e2e-\(UUID().uuidString).pem"
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var environment = StartupTests.valid
        environment["TOKENSWAP_CA_FILE"] = file
        let result = try await TokenSwapProcess.run(
            ["serve", "--host", "127.0.0.1", "--port", "0"], environment: environment)
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("TOKENSWAP_CA_FILE"))
        expectNoSecrets(
            in: [result.stdout, result.stderr],
            [StartupTests.secret] + Deployment.keyMaterial(StartupTests.key))
    }

    @Test func aPortInUseStopsStartUpWithOneLine() async throws {
        let first = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let result = try await TokenSwapProcess.run(
            ["serve", "--sandbox", "--host", "127.0.0.1", "--port", "\(first.port)"],
            environment: [:])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot listen on 127.0.0.1:\(first.port)"))
        #expect(!result.stdout.contains("listening"))
        #expect(try await first.stop() == 0)
    }
}
