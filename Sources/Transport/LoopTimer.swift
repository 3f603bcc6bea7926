import Synchronization

/// A timer on an event loop; cancel it (or drop it) to stop it.
package final class LoopTimer: Sendable {
    private let entry: TimerEntry

    init(entry: TimerEntry) {
        self.entry = entry
    }

    /// Stops the timer; safe from any thread, and more than once.
    package func cancel() {
        entry.cancel()
    }

    deinit {
        entry.cancel()
    }
}

/// What the loop's timer queue holds: the handler, the repeat interval (nil: once), and
/// whether it was cancelled (a cancelled entry is skipped when it comes due).
final class TimerEntry: Sendable {
    let handler: @Sendable () -> Void
    let interval: Double?
    private let cancelled = Atomic<Bool>(false)

    init(handler: @escaping @Sendable () -> Void, interval: Double?) {
        self.handler = handler
        self.interval = interval
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}
