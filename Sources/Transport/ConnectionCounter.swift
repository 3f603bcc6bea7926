import Synchronization

/// Open connections, counted across threads: listeners increment it at accept and the
/// channel's close decrements it. Several listeners may share one, so a cap is global.
public final class ConnectionCounter: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    public var current: Int { value.load(ordering: .relaxed) }

    func increment() { value.add(1, ordering: .relaxed) }

    func decrement() { value.subtract(1, ordering: .relaxed) }
}
