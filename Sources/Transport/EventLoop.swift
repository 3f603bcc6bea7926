import Dispatch

/// One serial DispatchQueue that owns a set of channels and their state. Everything a
/// channel or connection does runs on its loop's queue, so that state needs no locks.
public final class EventLoop: Sendable {
    public let queue: DispatchQueue
    /// Position in its group, for logs and for per-loop tables.
    public let index: Int
    /// One receive buffer per loop: a read copies only the bytes that arrived into the
    /// connection's own buffer, so an idle connection holds no 64 KiB of its own.
    let scratch: ReceiveScratch

    public init(index: Int, receiveScratchBytes: Int = 64 * 1024) {
        self.index = index
        self.queue = DispatchQueue(label: "tokenswap.loop.\(index)")
        self.scratch = ReceiveScratch(byteCount: receiveScratchBytes)
    }

    /// Runs `work` on this loop, after whatever is already queued.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Traps in debug builds when called off this loop: loop-confined state depends on it.
    public func assertInLoop() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Calls `handler` on this loop every `intervalSeconds` (clamped as `Deadline` clamps)
    /// until the timer is cancelled.
    public func scheduleRepeating(
        intervalSeconds: Double, handler: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        let interval = DispatchTimeInterval.nanoseconds(
            Int(Deadline.nanoseconds(clamping: intervalSeconds)))
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
        source.setEventHandler(handler: handler)
        source.activate()
        return LoopTimer(source: source)
    }

    /// Calls `handler` on this loop once, at `deadline`, unless cancelled first.
    public func schedule(
        at deadline: Deadline, handler: @escaping @Sendable () -> Void
    ) -> LoopTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: deadline.dispatchTime, leeway: .milliseconds(1))
        let timer = LoopTimer(source: source)
        source.setEventHandler {
            handler()
            // One-shot: cancelling releases the handler (and what it captured).
            timer.cancel()
        }
        source.activate()
        return timer
    }
}
