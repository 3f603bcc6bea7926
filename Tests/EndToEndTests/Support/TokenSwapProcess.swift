import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tokenswap` binary as a child process, with a clean environment (only what
/// the test gives, plus PATH), and everything it writes on stdout and stderr kept so the
/// test can check that no secret, code, token or key ever appeared there.
final class TokenSwapProcess: Sendable {
    let process: Process
    let port: UInt16
    let adminPort: UInt16?
    private let stdout: OutputCapture
    private let stderr: OutputCapture

    /// The binary next to this test bundle (`swift build --build-tests` builds it), or
    /// `TOKENSWAP_BINARY`.
    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["TOKENSWAP_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = bundle.appendingPathComponent("tokenswap")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw EndToEndFailure("no tokenswap binary at \(candidate.path); build it first")
        }
        return candidate
    }

    /// Runs `tokenswap <arguments>` to completion: its status, stdout and stderr.
    static func run(_ arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let binary = try binary()
        return try await offPool {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = clean(environment)
            let out = OutputCapture()
            let err = OutputCapture()
            process.standardOutput = out.pipe
            process.standardError = err.pipe
            try process.run()
            process.waitUntilExit()
            return (process.terminationStatus, out.waitForEnd(), err.waitForEnd())
        }
    }

    /// Starts `tokenswap serve --host 127.0.0.1 --port 0 <arguments>` and waits for its
    /// listening line(s).
    static func serve(_ arguments: [String] = [], environment: [String: String]) async throws
        -> TokenSwapProcess
    {
        let binary = try binary()
        return try await offPool {
            try TokenSwapProcess(binary: binary, arguments: arguments, environment: environment)
        }
    }

    private init(binary: URL, arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        process.environment = Self.clean(environment)
        let out = OutputCapture()
        let err = OutputCapture()
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        try process.run()
        self.process = process
        self.stdout = out
        self.stderr = err
        let wantsAdmin = environment["TOKENSWAP_ADMIN_PORT"] != nil
        guard let main = out.waitForLine(prefix: "tokenswap listening on 127.0.0.1:"),
            let port = UInt16(main)
        else {
            process.terminate()
            throw EndToEndFailure("tokenswap did not start: \(err.text)")
        }
        self.port = port
        if wantsAdmin {
            guard let admin = out.waitForLine(prefix: "tokenswap admin listening on 127.0.0.1:")
            else {
                process.terminate()
                throw EndToEndFailure("no admin listening line")
            }
            self.adminPort = UInt16(admin)
        } else {
            self.adminPort = nil
        }
    }

    static func clean(_ environment: [String: String]) -> [String: String] {
        var clean = environment
        clean["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return clean
    }

    var output: String { stdout.text + stderr.text }
    var standardOutput: String { stdout.text }
    var standardError: String { stderr.text }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// SIGTERM and the exit status (nil if it did not exit in time).
    @discardableResult
    func stop(withinSeconds seconds: Double = 10) async throws -> Int32? {
        signal(SIGTERM)
        return try await exitStatus(withinSeconds: seconds)
    }

    func exitStatus(withinSeconds seconds: Double) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning { return nil }
        // The pipes reach EOF once the process is gone; wait for the last bytes.
        _ = try await offPool { [stdout, stderr] in (stdout.waitForEnd(), stderr.waitForEnd()) }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// Everything a child writes on one stream, read by a thread of its own until EOF.
final class OutputCapture: Sendable {
    let pipe = Pipe()
    private let state = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))
    private let condition = NSCondition()

    init() {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                state.withLock {
                    if data.isEmpty { $0.ended = true } else { $0.bytes += data }
                }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }.start()
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Blocks until a line starting with `prefix` arrives (the rest of it returned) or the
    /// stream ends or 20 s pass.
    func waitForLine(prefix: String) -> String? {
        let deadline = Date().addingTimeInterval(20)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let (text, ended) = state.withLock {
                (String(decoding: $0.bytes, as: UTF8.self), $0.ended)
            }
            // Only whole lines: the last piece may still be growing.
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            where line.hasPrefix(prefix) {
                return String(line.dropFirst(prefix.count))
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    func waitForEnd() -> String {
        let deadline = Date().addingTimeInterval(10)
        condition.lock()
        defer { condition.unlock() }
        while !state.withLock({ $0.ended }), condition.wait(until: deadline) {}
        return text
    }
}
