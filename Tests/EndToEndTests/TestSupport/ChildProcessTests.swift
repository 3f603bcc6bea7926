import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every wait here blocks its thread, so it runs on one of its own (`offPool`), never on
/// the cooperative pool the other suites' tests share.
@Suite(.resourceClass(.processes)) struct ChildProcessTests {
    @Test func runReportsStatusAndOutput() async throws {
        let result = try await offPool {
            try ChildProcess.run("sh", ["-c", "echo out; echo err >&2; exit 3"])
        }
        #expect(result.status == .exited(3))
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func signalEndsTheChild() async throws {
        let child = try ChildProcess("sleep", ["30"])
        child.signal(SIGTERM)
        #expect(await child.exitStatus(timeoutSeconds: 10) == .signalled(SIGTERM))
    }

    @Test func waitsForAnAnnouncedLine() async throws {
        let child = try ChildProcess("sh", ["-c", "printf 'noise\\nPORT 1234\\n'; sleep 30"])
        let line = try await offPool {
            child.stdout.waitForLine(prefix: "PORT ", timeoutSeconds: 10)
        }
        #expect(line == "1234")
        _ = try await offPool { child.kill() }
    }

    /// The child sees only stdin, stdout and stderr: nothing of the test process leaks
    /// into it (ls lists its own directory descriptor too, hence at most 4 entries).
    @Test func childInheritsNoOtherDescriptor() async throws {
        let held = open("/dev/null", O_RDONLY)  // deliberately without O_CLOEXEC
        defer { close(held) }
        let result = try await offPool { try ChildProcess.run("sh", ["-c", "ls /proc/self/fd"]) }
        let fds = result.stdout.split(separator: "\n").compactMap { Int($0) }
        #expect(fds.allSatisfy { $0 <= 3 }, "inherited: \(fds)")
    }

    /// A signal the test process ignores is at its default action in the child.
    @Test func ignoredSignalsAreResetInTheChild() async throws {
        let previous = Glibc.signal(SIGTERM, SIG_IGN)
        defer { Glibc.signal(SIGTERM, previous) }
        let child = try ChildProcess("sleep", ["30"])
        child.signal(SIGTERM)
        #expect(await child.exitStatus(timeoutSeconds: 10) == .signalled(SIGTERM))
    }

    /// The regression that made parallel end-to-end tests hang: many short children
    /// spawned while a long-lived one runs are each seen to exit promptly.
    @Test func shortChildrenExitWhileALongOneRuns() async throws {
        let longLived = try ChildProcess("sleep", ["60"])
        defer { longLived.kill() }
        try await withThrowingTaskGroup(of: ChildProcess.ExitStatus?.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let child = try ChildProcess("true", [])
                    return await child.exitStatus(timeoutSeconds: 10)
                }
            }
            for try await status in group {
                #expect(status == .exited(0))
            }
        }
    }

    @Test func heldOpenStdinEndsWhenReleased() async throws {
        var child: ChildProcess? = try ChildProcess("cat", [], stdin: .heldOpen)
        let output = try #require(child?.stdout)
        child = nil  // closes cat's stdin (and kills it if it had not exited)
        #expect(try await offPool { output.waitForEnd(timeoutSeconds: 10) } == "")
    }
}
