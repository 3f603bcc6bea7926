import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tokenswap` binary as a child process, with a clean environment (only what
/// the test gives, plus PATH), and everything it writes on stdout and stderr kept so the
/// test can check that no secret, code, token or key ever appeared there.
final class TokenSwapProcess: Sendable {
    let process: ChildProcess
    let port: UInt16
    let adminPort: UInt16?
    private var stdout: ChildOutput { process.stdout }
    private var stderr: ChildOutput { process.stderr }

    /// Runs `tokenswap <arguments>` to completion: its status, stdout and stderr.
    static func run(_ arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let binary = try TokenSwapBinary.url()
        return try await offPool {
            let result = try ChildProcess.run(
                binary.path, arguments, environment: clean(environment))
            let status: Int32 =
                switch result.status {
                case .exited(let code): code
                case .signalled(let signal): -signal
                }
            return (status, result.stdout, result.stderr)
        }
    }

    /// Starts `tokenswap serve --host 127.0.0.1 --port 0 <arguments>` and waits for its
    /// listening line(s); with `fileLimit`, under `ulimit -n` that low (soft and hard).
    static func serve(
        _ arguments: [String] = [], environment: [String: String], fileLimit: Int? = nil
    ) async throws -> TokenSwapProcess {
        let binary = try TokenSwapBinary.url()
        return try await offPool {
            try TokenSwapProcess(
                binary: binary, arguments: arguments, environment: environment,
                fileLimit: fileLimit)
        }
    }

    private init(
        binary: URL, arguments: [String], environment: [String: String], fileLimit: Int?
    ) throws {
        var command = [binary.path, "serve", "--host", "127.0.0.1", "--port", "0"] + arguments
        if let fileLimit {
            // The shell sets the limit and execs the binary in its place (same pid).
            command = ["/bin/sh", "-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\""] + command
        }
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: Self.clean(environment))
        self.process = process
        let out = process.stdout
        let err = process.stderr
        let wantsAdmin = environment["TOKENSWAP_ADMIN_PORT"] != nil
        guard let main = out.waitForLine(prefix: "tokenswap listening on 127.0.0.1:"),
            let port = UInt16(main)
        else {
            process.kill()
            throw EndToEndFailure("tokenswap did not start: \(err.text)")
        }
        self.port = port
        if wantsAdmin {
            let adminHost = environment["TOKENSWAP_ADMIN_HOST"] ?? "127.0.0.1"
            guard
                let admin = out.waitForLine(prefix: "tokenswap admin listening on \(adminHost):")
            else {
                process.kill()
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
        process.signal(number)
    }

    /// SIGTERM and the exit status (nil if it did not exit in time).
    @discardableResult
    func stop(withinSeconds seconds: Double = 10) async throws -> Int32? {
        signal(SIGTERM)
        return try await exitStatus(withinSeconds: seconds)
    }

    func exitStatus(withinSeconds seconds: Double) async throws -> Int32? {
        guard let status = await process.exitStatus(timeoutSeconds: seconds) else { return nil }
        // The pipes reach EOF once the process is gone; wait for the last bytes.
        _ = try await offPool { [stdout, stderr] in (stdout.waitForEnd(), stderr.waitForEnd()) }
        switch status {
        case .exited(let code): return code
        case .signalled(let signal): return -signal
        }
    }
}
