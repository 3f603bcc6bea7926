import Synchronization
import Transport

@testable import TokenSwap

/// A state store that holds seen-once keys in a set, for the `jti` replay check's unit
/// tests (answers before it returns, like the memory store). The other operations are
/// not this check's and answer a store failure, so a test that reached one would fail.
final class SeenOnceStore: StateStore {
    private let seen = Mutex<[StateKey: Duration]>([:])

    var keptFor: [Duration] { seen.withLock { Array($0.values) } }

    func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        let inserted = seen.withLock { seen in
            guard seen[key] == nil else { return false }
            seen[key] = keepFor
            return true
        }
        completion(.success(inserted))
    }

    func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        completion(.success(seen.withLock { $0[key] != nil }))
    }

    private static func unused(_ operation: String) -> StateStoreError {
        StateStoreError(operation: operation, reason: "not part of the seen-once test store")
    }

    func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("claim"))) }

    func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("settle"))) }

    func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("await"))) }

    func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("take"))) }

    func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("give_back"))) }

    func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("poll"))) }

    func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("slow_down"))) }

    func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("finish"))) }

    func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) { completion(.failure(Self.unused("raise_generation"))) }
}
