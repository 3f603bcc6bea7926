import Transport

@testable import TokenSwap

/// How long a claim lasts unless the test says otherwise: the tests that leave it at
/// that are about who gets the claim or the answer, never about its expiry. (At 5 s, a
/// test process stalled that long between a claim and its settle saw the claim expire on
/// the server's clock, and the waiter claim instead of getting the answer.)
private let claimLifetime: Duration = .seconds(600)

/// The store's callback operations, awaited (tests only: the product calls them by
/// callback on its loops).
extension StateStore {
    func claim(_ key: StateKey, inFlightFor: Duration = claimLifetime)
        async throws(StateStoreError) -> RefreshClaim
    {
        try await awaited { claim(key, inFlightFor: inFlightFor, completion: $0) }
    }

    func settle(_ key: StateKey, answer: [UInt8]?, keepFor: Duration = .seconds(60))
        async throws(StateStoreError)
    {
        try await awaited { settle(key, answer: answer, keepFor: keepFor, completion: $0) }
    }

    func awaitAnswer(_ key: StateKey, until deadline: Deadline) async throws(StateStoreError)
        -> RefreshClaim
    {
        try await awaited {
            awaitAnswer(key, inFlightFor: claimLifetime, until: deadline, completion: $0)
        }
    }

    func take(_ key: StateKey, _ limit: BucketLimit) async throws(StateStoreError) -> RateDecision {
        try await awaited { take(key, limit: limit, completion: $0) }
    }

    func giveBack(_ key: StateKey, _ limit: BucketLimit) async throws(StateStoreError) {
        try await awaited { giveBack(key, limit: limit, completion: $0) }
    }

    func poll(_ key: StateKey, initialInterval: Int, lifetime: Duration = .seconds(600))
        async throws(StateStoreError) -> DevicePollSchedule.Decision
    {
        try await awaited {
            poll(key, initialInterval: initialInterval, lifetime: lifetime, completion: $0)
        }
    }

    func providerAskedToSlowDown(_ key: StateKey) async throws(StateStoreError) -> Int? {
        try await awaited { providerAskedToSlowDown(key, completion: $0) }
    }

    func finishPolling(_ key: StateKey) async throws(StateStoreError) {
        try await awaited { finishPolling(key, completion: $0) }
    }

    func insertIfAbsent(_ key: StateKey, keepFor: Duration) async throws(StateStoreError) -> Bool {
        try await awaited { insertIfAbsent(key, keepFor: keepFor, completion: $0) }
    }

    func contains(_ key: StateKey) async throws(StateStoreError) -> Bool {
        try await awaited { contains(key, completion: $0) }
    }

    func raiseGeneration(_ key: StateKey, to generation: UInt64) async throws(StateStoreError)
        -> UInt64
    {
        try await awaited {
            raiseGeneration(key, to: generation, keepFor: .seconds(60), completion: $0)
        }
    }
}

func awaited<Value: Sendable>(
    _ call: (@escaping @Sendable (Result<Value, StateStoreError>) -> Void) -> Void
) async throws(StateStoreError) -> Value {
    let result = await withCheckedContinuation { continuation in
        call { continuation.resume(returning: $0) }
    }
    return try result.get()
}
