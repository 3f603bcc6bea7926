import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.resourceClass(.processes)) struct ChildProcessTests {
    @Test func runReportsStatusAndOutput() throws {
        let result = try ChildProcess.run("sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == .exited(3))
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func signalEndsTheChild() throws {
        let child = try ChildProcess("sleep", ["30"])
        child.signal(SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 10) == .signalled(SIGTERM))
    }

    @Test func waitsForAnAnnouncedLine() throws {
        let child = try ChildProcess("sh", ["-c", "printf 'noise\\nPORT 1234\\n'; sleep 30"])
        #expect(child.stdout.waitForLine(prefix: "PORT ", timeoutSeconds: 10) == "1234")
        child.kill()
    }

    /// The child sees only stdin, stdout and stderr: nothing of the test process leaks
    /// into it (ls lists its own directory descriptor too, hence at most 4 entries).
    @Test func childInheritsNoOtherDescriptor() throws {
        let held = open("/dev/null", O_RDONLY)  // deliberately without O_CLOEXEC
        defer { close(held) }
        let result = try ChildProcess.run("sh", ["-c", "ls /proc/self/fd"])
        let fds = result.stdout.split(separator: "\n").compactMap { Int($0) }
        #expect(fds.allSatisfy { $0 <= 3 }, "inherited: \(fds)")
    }

    /// A signal the test process ignores is at its default action in the child.
    @Test func ignoredSignalsAreResetInTheChild() throws {
        let previous = Glibc.signal(SIGTERM, SIG_IGN)
        defer { Glibc.signal(SIGTERM, previous) }
        let child = try ChildProcess("sleep", ["30"])
        child.signal(SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 10) == .signalled(SIGTERM))
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

    @Test func heldOpenStdinEndsWhenReleased() throws {
        var child: ChildProcess? = try ChildProcess("cat", [], stdin: .heldOpen)
        let output = try #require(child?.stdout)
        child = nil  // closes cat's stdin (and kills it if it had not exited)
        #expect(output.waitForEnd(timeoutSeconds: 10) == "")
    }
}
