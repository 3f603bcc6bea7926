import CChildProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for tests (the tokenswap binary, Python stubs, openssl), spawned
/// with every inherited descriptor closed and reaped by `waitpid` on a thread of its
/// own. Foundation's `Process` is not used: children spawned concurrently inherit each
/// other's exit-notification sockets, so exits go unseen and parallel tests hang.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let stdout: ChildOutput
    public let stderr: ChildOutput
    public let executable: String

    private let exit: ExitRecord
    /// The write end of the child's stdin with `.heldOpen`; closed in `deinit`.
    private let stdinWriteEnd: Int32

    /// What the child reads on stdin.
    public enum Input: Sendable {
        /// /dev/null: end of file at once.
        case null
        /// A pipe this object holds open until it is released: a stub that exits at end of
        /// its stdin then never outlives the test that started it, even a crashed one.
        case heldOpen
    }

    /// How a child ended.
    public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Spawns `executable` (a path, or a name looked up in PATH) with `arguments`.
    /// `environment` nil inherits the test's environment.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdin: Input = .null
    ) throws {
        self.executable = executable
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard tokenswap_test_pipe(&outPipe) == 0 else {
            throw SpawnError(description: "pipe2: errno \(errno)")
        }
        guard tokenswap_test_pipe(&errPipe) == 0 else {
            close(outPipe[0])
            close(outPipe[1])
            throw SpawnError(description: "pipe2: errno \(errno)")
        }
        var inPipe: [Int32] = [-1, -1]
        switch stdin {
        case .null:
            inPipe[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)
        case .heldOpen:
            guard tokenswap_test_pipe(&inPipe) == 0 else {
                for fd in outPipe + errPipe { close(fd) }
                throw SpawnError(description: "pipe2: errno \(errno)")
            }
        }
        defer {
            close(outPipe[1])
            close(errPipe[1])
            if inPipe[0] >= 0 { close(inPipe[0]) }
        }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var spawned: pid_t = 0
        let result = tokenswap_test_spawn(
            &spawned, executable, argv, envp, inPipe[0], outPipe[1], errPipe[1])
        let pid = spawned
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            if inPipe[1] >= 0 { close(inPipe[1]) }
            throw SpawnError(description: "cannot spawn \(executable): errno \(result)")
        }
        self.pid = pid
        self.stdinWriteEnd = inPipe[1]
        self.stdout = ChildOutput(readingFrom: outPipe[0])
        self.stderr = ChildOutput(readingFrom: errPipe[0])
        // The reaper holds only the record, not the ChildProcess, so dropping the last
        // reference to a running child still reaches `deinit` (which kills it).
        let exit = ExitRecord()
        self.exit = exit
        let reaper = Thread {
            var status: Int32 = 0
            // EINTR: a signal arrived while waiting; the child is still ours to reap.
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            exit.record(
                (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f))
        }
        reaper.name = "child reaper"
        reaper.start()
    }

    /// Runs a command to completion (at most `timeoutSeconds`, then SIGKILL) and returns
    /// its status and output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeoutSeconds: Double = 60
    ) throws -> (status: ExitStatus, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = child.waitForExit(timeoutSeconds: timeoutSeconds) ?? child.kill()
        return (status, child.stdout.waitForEnd(), child.stderr.waitForEnd())
    }

    public var hasExited: Bool { exit.status(waitingSeconds: 0) != nil }

    /// Sends `signal` unless the child has already been reaped (its pid may be reused).
    public func signal(_ signal: Int32) {
        exit.unlessRecorded { Glibc.kill(pid, signal) }
    }

    /// Blocks until the child exits or `timeoutSeconds` pass (nil then).
    public func waitForExit(timeoutSeconds: Double) -> ExitStatus? {
        exit.status(waitingSeconds: timeoutSeconds)
    }

    /// The same, without holding a thread of the cooperative pool while waiting.
    public func exitStatus(timeoutSeconds: Double) async -> ExitStatus? {
        let exit = exit
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: exit.status(waitingSeconds: timeoutSeconds))
            }
        }
    }

    /// SIGKILL and reap.
    @discardableResult
    public func kill() -> ExitStatus {
        signal(SIGKILL)
        return waitForExit(timeoutSeconds: 30) ?? .signalled(SIGKILL)
    }

    deinit {
        if stdinWriteEnd >= 0 { close(stdinWriteEnd) }
        if !hasExited { kill() }
    }
}
