import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TokenSwap

/// The log queue: callers never wait for the reader; a full queue drops and counts; the
/// drop is announced once lines flow again.
@Suite(.serialized, .resourceClass(.deadlines)) struct LogLineQueueTests {
    /// A writer that blocks until the test opens the gate, like a pipe nobody reads.
    final class StalledWriter: Sendable {
        let written = Mutex<[String]>([])
        let notices = Mutex<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        /// Whether a batch has reached the writer (it then blocks until the gate opens).
        let entered = Mutex(false)

        func write(_ batch: String) {
            entered.withLock { $0 = true }
            gate.wait()
            gate.signal()  // open stays open
            written.withLock { $0.append(batch) }
        }

        var lines: [Substring] {
            written.withLock { $0.joined() }.split(separator: "\n")
        }
    }

    /// Raised once, looked at from anywhere.
    final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .releasing) }
        var isRaised: Bool { raised.load(ordering: .acquiring) }
    }

    /// Every wait here is for an event, with `pollUntil`'s generous limit. Before, three
    /// waits ended silently after 5 s (the drain thread's first batch, the flush, the
    /// notice) and the flood had to finish in under 2 s: on a loaded machine a wait that
    /// ran out let the test go on from a state it did not assume, and the 2 s bound measured
    /// the machine, not the queue.
    @Test func aStalledWriterNeverBlocksEnqueueAndDropsAreCountedThenAnnounced() async throws {
        let writer = StalledWriter()
        defer { writer.gate.signal() }  // a failure must not leave the drain thread held
        let queue = LogLineQueue(
            capacityBytes: 1000, noticeIntervalSeconds: 0,
            write: { writer.write($0) },
            notice: { count in writer.notices.withLock { $0.append(count) } })
        let line = String(repeating: "x", count: 99) + "\n"  // 100 bytes
        // The first line reaches the writer before the flood, so the drain thread holds
        // its batch and blocks however late its thread was scheduled (on a loaded machine
        // it took lines mid-flood and the drop was announced in two parts).
        queue.enqueue(line)
        try await pollUntil { writer.entered.withLock { $0 } }
        // 10,000 enqueues behind a writer that never returns, on a thread of their own:
        // they finish while the writer is still held, so none waited for I/O.
        let flooded = Flag()
        Thread {
            for _ in 1..<10_000 { queue.enqueue(line) }
            flooded.raise()
        }.start()
        try await pollUntil { flooded.isRaised }
        #expect(writer.written.withLock { $0.isEmpty })
        // The drain thread holds one batch (the first line, taken before it blocked); the
        // queue holds 10 lines (1,000 bytes); everything else is dropped and counted.
        let dropped = queue.droppedLines
        #expect(dropped == 10_000 - 1 - 10)

        writer.gate.signal()
        try await pollUntil { writer.lines.count == 10_000 - dropped }
        try await pollUntil { !writer.notices.withLock { $0.isEmpty } }
        #expect(writer.notices.withLock { $0 } == [dropped])
    }

    @Test func linesKeepTheirOrderAndNothingIsDroppedWhileTheReaderKeepsUp() {
        let writer = StalledWriter()
        writer.gate.signal()
        let queue = LogLineQueue(write: { writer.write($0) }, notice: { _ in })
        for index in 0..<2000 { queue.enqueue("line \(index)\n") }
        queue.flush(timeoutSeconds: 30)
        #expect(writer.lines.map(String.init) == (0..<2000).map { "line \($0)" })
        #expect(queue.droppedLines == 0)
    }

    @Test func droppedLinesAreAMetric() async {
        let writer = StalledWriter()
        let queue = LogLineQueue(capacityBytes: 10, write: { writer.write($0) }, notice: { _ in })
        let metrics = ServiceMetrics(logQueue: queue)
        for _ in 0..<50 { queue.enqueue("0123456789\n") }
        let dropped = queue.droppedLines
        #expect(dropped >= 48)
        let text = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(text.contains("tokenswap_log_lines_dropped_total \(dropped)\n"))
        // A second scrape does not count the same drops twice.
        let again = String(decoding: await metrics.exposition(), as: UTF8.self)
        #expect(again.contains("tokenswap_log_lines_dropped_total \(dropped)\n"))
        writer.gate.signal()
    }
}
