import Dispatch
import Transport

/// The one timer of a connection (handshake, exchange and idle deadlines in turn),
/// re-armed lazily: moving a deadline later only records it, and the timer, when it
/// fires early, re-arms itself for the recorded time. A connection that carries request
/// after request therefore costs no timer system work per request, where a fresh
/// Dispatch timer per request would cost a source creation and a cancellation.
///
/// `@unchecked Sendable` is sound: the timer's handler runs on the connection's loop
/// queue, and every method is called on that loop (the owning connection is
/// loop-confined), so the mutable state is never touched from two threads at once.
final class ConnectionDeadline: @unchecked Sendable {
    private let source: any DispatchSourceTimer
    /// When the Dispatch timer will fire next, if armed.
    private var armedAt: DispatchTime?
    private var deadline: Deadline?
    private var onExpiry: (() -> Void)?

    init(queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [weak self] in self?.fired() }
        source.activate()
    }

    /// Calls `onExpiry` on the loop once `deadline` has passed, unless cleared or set
    /// again first.
    func set(_ deadline: Deadline, onExpiry: @escaping () -> Void) {
        self.deadline = deadline
        self.onExpiry = onExpiry
        if let armed = armedAt, armed <= deadline.dispatchTime { return }
        arm(deadline.dispatchTime)
    }

    func clear() {
        deadline = nil
        onExpiry = nil
    }

    func cancel() {
        clear()
        source.cancel()
    }

    private func arm(_ when: DispatchTime) {
        armedAt = when
        source.schedule(deadline: when, leeway: .milliseconds(2))
    }

    private func fired() {
        armedAt = nil
        guard let deadline else { return }
        guard deadline.hasPassed() else { return arm(deadline.dispatchTime) }
        let expiry = onExpiry
        clear()
        expiry?()
    }
}
