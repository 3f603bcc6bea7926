import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Everything a child writes on one of its output streams, read on a thread of its own
/// until end of file, so a test can wait for a line (a "listening on" banner) and later
/// check the whole text (no secret ever printed).
public final class ChildOutput: Sendable {
    // `NSCondition` guards `state`; Foundation's NSCondition is thread-safe by design.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()

    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        /// `pauseReading()`: the child's writes back up in the pipe, as behind a stalled
        /// log shipper.
        var paused = false
    }

    /// Starts reading `fd` (the parent's end of a pipe) and closes it at end of file.
    init(readingFrom fd: Int32) {
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                condition.lock()
                while state.paused { condition.wait() }
                condition.unlock()
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }  // a signal interrupted the read
                condition.lock()
                if count > 0 {
                    state.bytes.append(contentsOf: chunk[0..<count])
                } else {
                    state.ended = true
                }
                condition.broadcast()
                condition.unlock()
                if count <= 0 { break }
            }
            close(fd)
        }
        thread.name = "child output"
        thread.start()
    }

    /// Stops reading (after the read in progress, if any): once the pipe's buffer is full
    /// the child's writes to it block, as they do behind a log reader that stopped.
    public func pauseReading() {
        condition.lock()
        state.paused = true
        condition.unlock()
    }

    public func resumeReading() {
        condition.lock()
        state.paused = false
        condition.broadcast()
        condition.unlock()
    }

    /// What arrived so far.
    public var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: state.bytes, as: UTF8.self)
    }

    /// Waits for a complete line starting with `prefix` and returns the rest of it; nil
    /// if the stream ends or `timeoutSeconds` pass first.
    public func waitForLine(prefix: String, timeoutSeconds: Double = 30) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: state.bytes, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            // The last element is an unfinished line (or empty after a final newline).
            for line in lines.dropLast() where line.hasPrefix(prefix) {
                return String(line.dropFirst(prefix.count))
            }
            if state.ended { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits until what arrived contains `text`: true then; false if the stream ends or
    /// `timeoutSeconds` pass first.
    public func waitForText(containing text: String, timeoutSeconds: Double = 30) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if String(decoding: state.bytes, as: UTF8.self).contains(text) { return true }
            if state.ended { return false }
            if !condition.wait(until: deadline) { return false }
        }
    }

    /// Waits until the stream ends (the child and every holder of the pipe closed it),
    /// at most `timeoutSeconds`, and returns all of it.
    public func waitForEnd(timeoutSeconds: Double = 30) -> String {
        let deadline = Date(timeIntervalSinceNow: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while !state.ended {
            if !condition.wait(until: deadline) { break }
        }
        return String(decoding: state.bytes, as: UTF8.self)
    }
}
