import Foundation

/// The exit status of one child, written once by its reaper thread.
final class ExitRecord: Sendable {
    private let condition = NSCondition()
    // Guarded by `condition` (NSCondition is thread-safe by design).
    private nonisolated(unsafe) var recorded: ChildProcess.ExitStatus?

    func record(_ status: ChildProcess.ExitStatus) {
        condition.lock()
        recorded = status
        condition.broadcast()
        condition.unlock()
    }

    /// The status, waiting at most `waitingSeconds` for it.
    func status(waitingSeconds: Double) -> ChildProcess.ExitStatus? {
        let deadline = Date(timeIntervalSinceNow: waitingSeconds)
        condition.lock()
        defer { condition.unlock() }
        while recorded == nil {
            if !condition.wait(until: deadline) { break }
        }
        return recorded
    }

    /// Runs `body` while holding the lock, if no status is recorded yet: a signal is never
    /// sent to a pid that was reaped (and may belong to another process by now).
    func unlessRecorded(_ body: () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        if recorded == nil { body() }
    }
}
