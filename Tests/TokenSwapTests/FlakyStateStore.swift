import Synchronization
import Transport

@testable import TokenSwap

/// A state store that is `MemoryStateStore` while up and fails every operation while down,
/// as `FailoverStateStore` does in `closed` mode (CONTRACT §12): for the answers of the
/// features that need the store when it is not there.
final class FlakyStateStore: StateStore {
    let memory: MemoryStateStore
    private let isDown = Atomic<Bool>(false)

    init(_ memory: MemoryStateStore = MemoryStateStore()) {
        self.memory = memory
    }

    func setDown(_ down: Bool) { isDown.store(down, ordering: .relaxed) }

    /// `operation` on the memory store while up, else the failure.
    private func run<Value>(
        _ name: String, _ completion: @escaping @Sendable (Result<Value, StateStoreError>) -> Void,
        _ operation: () -> Void
    ) {
        guard isDown.load(ordering: .relaxed) else { return operation() }
        completion(.failure(StateStoreError(operation: name, reason: "connection refused")))
    }

    func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        run("claim", completion) {
            memory.claim(key, inFlightFor: inFlightFor, completion: completion)
        }
    }

    func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run("settle", completion) {
            memory.settle(key, answer: answer, keepFor: keepFor, completion: completion)
        }
    }

    func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        run("await", completion) {
            memory.awaitAnswer(
                key, inFlightFor: inFlightFor, until: deadline, completion: completion)
        }
    }

    func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
    ) {
        run("take", completion) { memory.take(key, limit: limit, completion: completion) }
    }

    func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run("give_back", completion) { memory.giveBack(key, limit: limit, completion: completion) }
    }

    func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>) -> Void
    ) {
        run("poll", completion) {
            memory.poll(
                key, initialInterval: initialInterval, lifetime: lifetime, completion: completion)
        }
    }

    func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
    ) {
        run("slow_down", completion) { memory.providerAskedToSlowDown(key, completion: completion) }
    }

    func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run("finish_polling", completion) { memory.finishPolling(key, completion: completion) }
    }

    func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        run("insert", completion) {
            memory.insertIfAbsent(key, keepFor: keepFor, completion: completion)
        }
    }

    func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        run("contains", completion) { memory.contains(key, completion: completion) }
    }

    func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) {
        run("raise_generation", completion) {
            memory.raiseGeneration(key, to: generation, keepFor: keepFor, completion: completion)
        }
    }
}
