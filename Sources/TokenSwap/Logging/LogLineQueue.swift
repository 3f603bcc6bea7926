import Dispatch
import Logging
import Synchronization
import Transport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finished log lines on their way to a descriptor, written by a thread of their own.
///
/// stdout is usually a pipe to a log shipper; when the shipper stops reading, `write(2)`
/// blocks. Written from the request path, that stopped the service: with stdout piped
/// into a reader that stopped, it answered 511 `/healthz` requests (a 64 KiB pipe of
/// lines) and then nothing. Here callers only append to a queue bounded in bytes; one
/// drain thread does the writing and is the only thing that waits for the reader. When
/// the queue is full the line is dropped and counted: `droppedLines` feeds the
/// `tokenswap_log_lines_dropped_total` metric, and once lines flow again a warning says
/// how many were lost (at most one such line per `noticeIntervalSeconds`).
public final class LogLineQueue: Sendable {
    /// The process's stdout, flushed (for at most two seconds) when the process exits.
    public static let standardOutput: LogLineQueue = {
        let queue = LogLineQueue(write: { StandardStream.output.write($0) })
        // Lines still queued at exit() are the last requests and the drain's end: give
        // the drain thread a moment to write them, never long enough to hang an exit
        // whose reader has stopped.
        atexit { LogLineQueue.standardOutput.flush(timeoutSeconds: 2) }
        return queue
    }()

    /// Most bytes of lines waiting at once (lines are a few hundred bytes: thousands fit).
    package let capacityBytes: Int
    package let noticeIntervalSeconds: Double
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let write: @Sendable (String) -> Void
    private let notice: @Sendable (Int) -> Void

    private struct State: Sendable {
        var lines: [String] = []
        var bytes = 0
        var droppedTotal = 0
        var droppedSinceNotice = 0
        /// The drain thread is waiting (or about to) on `wake`.
        var drainerIdle = false
        /// A batch is taken but not yet written (flush waits for it).
        var writing = false
    }

    /// - Parameters:
    ///   - write: writes one batch of lines; may block for as long as the reader likes.
    ///   - notice: told how many lines were dropped since the last notice; by default a
    ///     `warning` through the process's logging system (in the configured format).
    package init(
        capacityBytes: Int = 256 * 1024, noticeIntervalSeconds: Double = 10,
        write: @escaping @Sendable (String) -> Void,
        notice: @escaping @Sendable (Int) -> Void = LogLineQueue.logDroppedLines
    ) {
        self.capacityBytes = max(1, capacityBytes)
        self.noticeIntervalSeconds = noticeIntervalSeconds
        self.write = write
        self.notice = notice
        startDrainThread()
    }

    /// Queues `line`, or drops and counts it when the queue is full. Never blocks on I/O.
    package func enqueue(_ line: String) {
        let size = line.utf8.count
        let wakeDrainer = state.withLock { state -> Bool in
            guard state.bytes + size <= capacityBytes else {
                state.droppedTotal += 1
                state.droppedSinceNotice += 1
                return false
            }
            state.lines.append(line)
            state.bytes += size
            guard state.drainerIdle else { return false }
            state.drainerIdle = false
            return true
        }
        if wakeDrainer { wake.signal() }
    }

    /// Lines dropped since the process started.
    package var droppedLines: Int { state.withLock { $0.droppedTotal } }

    /// Waits until every queued line is written, or `timeoutSeconds` pass.
    package func flush(timeoutSeconds: Double) {
        let deadline = Deadline.after(seconds: timeoutSeconds)
        while state.withLock({ !$0.lines.isEmpty || $0.writing }), !deadline.hasPassed() {
            usleep(1000)
        }
    }

    /// The default notice: one warning line, through whatever `LoggingSystem` the binary
    /// bootstrapped (so it has the configured format and comes back through this queue).
    package static let logDroppedLines: @Sendable (Int) -> Void = { count in
        Logger(label: "tokenswap").warning(
            "log lines dropped: stdout was not read fast enough",
            metadata: ["dropped": "\(count)"])
    }

    private func drainForever() {
        // When the next notice may go out: at once, the first time.
        var nextNotice = Deadline(uptimeNanoseconds: 0)
        while true {
            let batch = state.withLock { state -> [String] in
                let batch = state.lines
                state.lines = []
                state.bytes = 0
                state.writing = !batch.isEmpty
                state.drainerIdle = batch.isEmpty
                return batch
            }
            if batch.isEmpty {
                // Idle: sleep until a line arrives, waking now and then only while a
                // drop is still to be announced.
                if state.withLock({ $0.droppedSinceNotice }) > 0 {
                    _ = wake.wait(timeout: .now() + .milliseconds(250))
                } else {
                    wake.wait()
                }
            } else {
                write(batch.joined())
                state.withLock { $0.writing = false }
            }
            let now = Deadline.now
            guard nextNotice.hasPassed(at: now) else { continue }
            let dropped = state.withLock { state -> Int in
                defer { state.droppedSinceNotice = 0 }
                return state.droppedSinceNotice
            }
            if dropped > 0 {
                nextNotice = .after(seconds: noticeIntervalSeconds, from: now)
                notice(dropped)
            }
        }
    }

    /// A detached POSIX thread, not a Dispatch or cooperative-pool thread: it spends its
    /// life blocked in write(2) or on the semaphore, which would starve a shared pool.
    private func startDrainThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<LogLineQueue>.fromOpaque(context).takeRetainedValue().drainForever()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread (the process is out of threads): balance the retain; lines then
            // queue up to the bound and are dropped and counted, which is still no stall.
            Unmanaged<LogLineQueue>.fromOpaque(context).release()
        }
    }
}
