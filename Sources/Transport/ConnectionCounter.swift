import Synchronization

/// Open connections, counted across threads: listeners increment it at accept and the
/// channel's close decrements it. Several listeners may share one, so a cap is global.
package final class ConnectionCounter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    package var current: Int { value.load(ordering: .relaxed) }

    func increment() { value.add(1, ordering: .relaxed) }

    func decrement() { value.subtract(1, ordering: .relaxed) }
}
