import Synchronization

/// Request bytes still being read, over every connection of a server: what a few
/// hundred clients that send part of a head or announce a body and then stall would
/// otherwise hold (up to 24 KiB of head or 64 KiB of body each, 0.6 GiB at 10,000
/// connections). A connection reserves its announced body length (or, chunked, what it
/// decoded so far) before buffering it, and while a head waits for more bytes, what that
/// head holds (its buffer, and over TLS an incomplete record: CONTRACT §15); it gives
/// them back when the head or body is complete or the connection ends. Over the budget
/// its request is refused with 503 and the connection closed.
final class BodyBudget: Sendable {
    let limitBytes: Int
    private let inFlight = Atomic<Int>(0)

    init(limitBytes: Int) {
        self.limitBytes = max(0, limitBytes)
    }

    /// Reserves `bytes`; false (and nothing reserved) when that would pass the limit.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let after = inFlight.add(bytes, ordering: .relaxed).newValue
        guard after <= limitBytes else {
            inFlight.subtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Bytes reserved right now.
    var reserved: Int { inFlight.load(ordering: .relaxed) }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        inFlight.subtract(bytes, ordering: .relaxed)
    }
}
