import Transport

/// The one timer of a connection (exchange and idle deadlines in turn),
/// re-armed lazily: moving a deadline later only records it, and the timer, when it
/// fires early, re-arms itself for the recorded time. A connection that carries request
/// after request therefore costs no timer work per request.
///
/// `@unchecked Sendable` is sound: the timer's handler runs on the connection's loop, and
/// every method is called on that loop (the owning connection is loop-confined), so the
/// mutable state is never touched from two threads at once.
final class ConnectionDeadline: @unchecked Sendable {
    private let loop: EventLoop
    private var timer: LoopTimer?
    /// When the armed timer fires.
    private var armedAt: Deadline?
    private var deadline: Deadline?
    private var onExpiry: (() -> Void)?

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Calls `onExpiry` on the loop at `when`, unless cleared or set again first.
    func set(_ when: Deadline, onExpiry: @escaping () -> Void) {
        deadline = when
        self.onExpiry = onExpiry
        if let armed = armedAt, armed <= when { return }
        arm(when)
    }

    func clear() {
        deadline = nil
        onExpiry = nil
    }

    func cancel() {
        clear()
        timer?.cancel()
        timer = nil
        armedAt = nil
    }

    private func arm(_ when: Deadline) {
        timer?.cancel()
        armedAt = when
        timer = loop.schedule(at: when) { [weak self] in self?.fired() }
    }

    private func fired() {
        armedAt = nil
        timer = nil
        guard let deadline else { return }
        guard deadline.hasPassed() else { return arm(deadline) }
        let expiry = onExpiry
        clear()
        expiry?()
    }
}
