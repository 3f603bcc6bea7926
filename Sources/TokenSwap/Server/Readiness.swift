import Synchronization

/// What `/readyz` reports: ready from the moment the service is assembled (a loaded
/// configuration has its providers and keys, or assembly would have failed), not ready
/// from the start of a drain, so a load balancer stops sending before the listener closes.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    public init() {}

    public var isReady: Bool { !draining.load(ordering: .relaxed) }

    public func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }
}
