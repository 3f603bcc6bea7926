import Foundation
import TestSupport
import Testing
import TokenSwapClient

/// `tokenswap-device-login` in a real terminal (tmux), against `serve --sandbox`, the way
/// a person meets it: it shows a user code and where to enter it, the person approves on
/// the sandbox's page, and it reports it is signed in and calls the API.
@Suite(.serialized, .resourceClass(.processes)) struct DeviceLoginTerminalTests {
    /// One tmux server of its own (its socket in a temporary directory), so the test
    /// neither sees nor disturbs anyone's sessions.
    struct Terminal {
        let socket: String

        func tmux(_ arguments: [String]) async throws -> String {
            let socket = socket
            let run = try await offPool {
                try ChildProcess.run(
                    "tmux", ["-S", socket] + arguments,
                    environment: TokenSwapProcess.clean(["TERM": "xterm-256color"]),
                    timeoutSeconds: 10)
            }
            guard run.status == .exited(0) else {
                throw EndToEndFailure("tmux \(arguments.first ?? ""): \(run.status) \(run.stderr)")
            }
            return run.stdout
        }

        var screen: String {
            get async throws {
                try await tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "demo"])
            }
        }

        /// Waits (`pollUntil`'s limit) for a screen line that starts with `prefix`.
        func line(startingWith prefix: String) async throws -> String {
            var found: Substring?
            try? await pollUntil(every: .milliseconds(100)) {
                found = try await screen.split(separator: "\n").first { $0.hasPrefix(prefix) }
                return found != nil
            }
            if let found { return String(found) }
            // The screen, less the line that shows the user code.
            let shown = try await screen.split(separator: "\n").map {
                $0.contains("code") ? "<the sign-in prompt>" : $0
            }
            throw EndToEndFailure(
                "no line starting \(prefix) on the screen:\n\(shown.joined(separator: "\n"))")
        }
    }

    @Test func signsInWithTheDeviceFlowAndCallsTheAPI() async throws {
        let server = try await TokenSwapProcess.serve(["--sandbox"], environment: [:])
        let base = "http://127.0.0.1:\(server.port)"
        let directory = NSTemporaryDirectory() + "tokenswap-terminal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = directory + "/tmux.conf"
        // The pane stays after the program exits, so its last lines and status can be read.
        try "set -g remain-on-exit on\n".write(
            toFile: configuration, atomically: true, encoding: .utf8)
        let terminal = Terminal(socket: directory + "/tmux.sock")
        let store = directory + "/session"
        let program = [
            try DeviceLoginExampleTests.binary(), "--base-url", base, "--store", store,
            "--api-url", base + "/healthz", "--calls", "2", "--interval-seconds", "1",
        ].joined(separator: " ")
        // The pane's shell reports the program's exit status itself: tmux's own "Pane is
        // dead (status …)" line needs tmux to reap the program, which on this CI machine
        // it sometimes never did (the pane stayed dead with no status).
        let command = "sh -c '\(program); echo \"program exited with status $?\"'"
        // The pane stays after the program exits (remain-on-exit), so the server is killed
        // here whatever happens, not left behind.
        do {
            _ = try await terminal.tmux([
                "-f", configuration, "new-session", "-d", "-s", "demo", "-x", "200", "-y", "50",
                command,
            ])

            // "To sign in, open <verification URI> and enter the code <user code>"
            let prompt = try await terminal.line(startingWith: "To sign in, open ")
            let words = prompt.split(separator: " ")
            #expect(words.count == 10)
            let page = try #require(words.count > 4 ? String(words[4]) : nil)
            #expect(page == base + "/sandbox/device")
            let userCode = String(words.last ?? "")
            _ = try await terminal.line(startingWith: "Waiting for approval")

            try await TokenSwapClientDeviceFlowTests.decide(
                RedactedToken(userCode), approve: true, port: server.port)
            _ = try await terminal.line(startingWith: "Signed in.")
            _ = try await terminal.line(startingWith: "call 2: HTTP 200")
            _ = try await terminal.line(startingWith: "program exited with status 0")
        } catch {
            _ = try? await terminal.tmux(["kill-server"])
            throw error
        }
        _ = try await terminal.tmux(["kill-server"])
        #expect(try await FileCredentialStore(path: store).load() != nil)
        #expect(try await server.stop() == 0)
    }
}
