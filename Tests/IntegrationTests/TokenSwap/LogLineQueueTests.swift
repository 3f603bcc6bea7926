import Dispatch
import Synchronization
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

    @Test func aStalledWriterNeverBlocksEnqueueAndDropsAreCountedThenAnnounced() async throws {
        let writer = StalledWriter()
        let queue = LogLineQueue(
            capacityBytes: 1000, noticeIntervalSeconds: 0,
            write: { writer.write($0) },
            notice: { count in writer.notices.withLock { $0.append(count) } })
        let line = String(repeating: "x", count: 99) + "\n"  // 100 bytes
        // The first line reaches the writer before the flood, so the drain thread holds
        // its batch and blocks however late its thread was scheduled (on a loaded machine
        // it took lines mid-flood and the drop was announced in two parts).
        queue.enqueue(line)
        let entering = ContinuousClock.now + .seconds(5)
        while !writer.entered.withLock({ $0 }), ContinuousClock.now < entering {
            try await Task.sleep(for: .milliseconds(1))
        }
        let started = ContinuousClock.now
        for _ in 1..<10_000 { queue.enqueue(line) }
        // 10,000 enqueues behind a writer that never returns: no wait for I/O at all.
        #expect(ContinuousClock.now - started < .seconds(2))
        // The drain thread holds at most one batch (taken before it blocked) besides the
        // 10 lines the queue holds; everything else is dropped and counted.
        let dropped = queue.droppedLines
        #expect(dropped >= 10_000 - 20 && dropped <= 10_000 - 10, "dropped \(dropped)")

        writer.gate.signal()
        queue.flush(timeoutSeconds: 5)
        #expect(writer.lines.count == 10_000 - dropped)
        let deadline = ContinuousClock.now + .seconds(5)
        while writer.notices.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(writer.notices.withLock { $0 } == [dropped])
    }

    @Test func linesKeepTheirOrderAndNothingIsDroppedWhileTheReaderKeepsUp() {
        let writer = StalledWriter()
        writer.gate.signal()
        let queue = LogLineQueue(write: { writer.write($0) }, notice: { _ in })
        for index in 0..<2000 { queue.enqueue("line \(index)\n") }
        queue.flush(timeoutSeconds: 5)
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
