import Foundation
import TestSupport
import Testing

/// The sandbox's verification page in a real browser: headless Chromium (Debian's
/// `chromium` and `chromium-driver`, driven by `python3-selenium`; `.ci/run` installs
/// them) loads the page, types the user code, approves, and the polling device gets its
/// tokens. Screenshots land in `test-artifacts/device-page/` (gitignored). Missing
/// browser packages fail the test: CI must not pass without having looked at the page.
@Suite(.serialized, .resourceClass(.processes)) struct DevicePageBrowserTests {
    static var artifacts: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("test-artifacts/device-page").path
    }

    @Test func approveInHeadlessChromiumThenTheDeviceGetsTokens() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let script = Fixture.path("device_page_browser.py")
        let base = "http://127.0.0.1:\(server.port)"
        // Debian's python3-selenium belongs to the system interpreter, which a pyenv or
        // venv `python3` earlier in PATH would hide.
        let python =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            ? "/usr/bin/python3" : "python3"
        let result = try await offPool {
            try ChildProcess.run(python, [script, base, Self.artifacts], timeoutSeconds: 120)
        }
        #expect(
            result.status == .exited(0),
            "browser test: \(result.stderr.split(separator: "\n").suffix(5).joined(separator: "\n"))"
        )
        #expect(result.stdout.contains("device_page_browser: OK"))
        #expect(
            FileManager.default.fileExists(atPath: Self.artifacts + "/device-page-approved.png"))
        #expect(try await server.stop() == 0)
        // The page and the polls leave no codes or tokens in tokenswap's output.
        #expect(!server.output.contains("sbd-"))
        #expect(!server.output.contains("sba-"))
        #expect(!server.output.contains("sbr-"))
    }
}
