import Synchronization
import Testing
import Transport

@testable import TokenSwap
@testable import TokenSwapFixtures

/// `FailoverStateStore` (CONTRACT §12 "When the store fails") over a store that fails on
/// demand and this copy's memory: open falls back, closed hands the error on (but not for
/// rate limits), the health flips once per outage with one warning line each way, and
/// while down no call waits on the store (the PING that notices its return runs in
/// SharedStateTests, end to end).
@Suite struct FailoverStateStoreTests {
    /// A store whose every call fails while `failing` is set, counting the calls.
    final class SwitchableStore: StateStore {
        let failing = Atomic<Bool>(false)
        let calls = Atomic<Int>(0)
        let inner = MemoryStateStore()

        private func pass<Value: Sendable>(
            _ operation: String,
            _ completion: @escaping @Sendable (Result<Value, StateStoreError>) -> Void,
            _ call: (@escaping @Sendable (Result<Value, StateStoreError>) -> Void) -> Void
        ) {
            calls.add(1, ordering: .relaxed)
            if failing.load(ordering: .relaxed) {
                return completion(
                    .failure(StateStoreError(operation: operation, reason: "state store timeout")))
            }
            call(completion)
        }

        func claim(
            _ key: StateKey, inFlightFor: Duration,
            completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
        ) {
            pass("claim", completion) { inner.claim(key, inFlightFor: inFlightFor, completion: $0) }
        }
        func settle(
            _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
            completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
        ) {
            pass("settle", completion) {
                inner.settle(key, answer: answer, keepFor: keepFor, completion: $0)
            }
        }
        func awaitAnswer(
            _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
            completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
        ) {
            pass("await_answer", completion) {
                inner.awaitAnswer(key, inFlightFor: inFlightFor, until: deadline, completion: $0)
            }
        }
        func take(
            _ key: StateKey, limit: BucketLimit,
            completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
        ) {
            pass("take", completion) { inner.take(key, limit: limit, completion: $0) }
        }
        func giveBack(
            _ key: StateKey, limit: BucketLimit,
            completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
        ) {
            pass("give_back", completion) { inner.giveBack(key, limit: limit, completion: $0) }
        }
        func poll(
            _ key: StateKey, initialInterval: Int, lifetime: Duration,
            completion:
                @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>) -> Void
        ) {
            pass("poll", completion) {
                inner.poll(
                    key, initialInterval: initialInterval, lifetime: lifetime, completion: $0)
            }
        }
        func providerAskedToSlowDown(
            _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
        ) {
            pass("slow_down", completion) { inner.providerAskedToSlowDown(key, completion: $0) }
        }
        func finishPolling(
            _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
        ) {
            pass("finish_polling", completion) { inner.finishPolling(key, completion: $0) }
        }
        func insertIfAbsent(
            _ key: StateKey, keepFor: Duration,
            completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
        ) {
            pass("insert", completion) {
                inner.insertIfAbsent(key, keepFor: keepFor, completion: $0)
            }
        }
        func contains(
            _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
        ) {
            pass("contains", completion) { inner.contains(key, completion: $0) }
        }
        func raiseGeneration(
            _ key: StateKey, to generation: UInt64, keepFor: Duration,
            completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
        ) {
            pass("raise_generation", completion) {
                inner.raiseGeneration(key, to: generation, keepFor: keepFor, completion: $0)
            }
        }
    }

    struct Setup {
        let remote = SwitchableStore()
        let memory = MemoryStateStore()
        let logs = LogCapture()
        let metrics = ServiceMetrics()
        let failover: FailoverStateStore

        init(_ mode: StateFailureMode) {
            let remote = self.remote
            failover = FailoverStateStore(
                store: remote, memory: memory, mode: mode,
                health: StateStoreHealth(
                    logger: logs.logger, metrics: metrics, location: "redis://cache:6379/0"),
                probe: { completion in
                    remote.contains(StateKey(.proofID, value: "ping")!) {
                        completion($0.map { _ in })
                    }
                })
        }

        /// One call's result, answered synchronously (both stores here answer in place).
        func result<Value: Sendable>(
            _ call: (@escaping @Sendable (Result<Value, StateStoreError>) -> Void) -> Void
        ) -> Result<Value, StateStoreError>? {
            let box = Mutex<Result<Value, StateStoreError>?>(nil)
            call { result in box.withLock { $0 = result } }
            return box.withLock { $0 }
        }
    }

    static let key = StateKey(.refresh, value: "token")!

    /// CONTRACT §13 with a store: a proof id is the store's own key (`insertIfAbsent`: no
    /// share, no per-copy cap), and while the store is down in `open` mode this copy's
    /// proof-id table answers, with its room and shares (here one id a client).
    @Test func proofIDsGoToTheStoreAndWhileItIsDownToMemorysTable() throws {
        let remote = SwitchableStore()
        let failover = FailoverStateStore(
            store: remote, memory: MemoryStateStore(proofIDCapacity: 16), mode: .open,
            health: StateStoreHealth(
                logger: LogCapture().logger, metrics: ServiceMetrics(),
                location: "redis://cache:6379/0"),
            probe: { $0(.success(())) })
        let client = ClientPrefix(try #require(IPAddress("192.0.2.1")), ipv6PrefixLength: 64)
        func record(_ jti: String) throws -> Result<ProofIDRecording, StateStoreError>? {
            let key = try #require(StateKey(.proofID, scope: "spotify", value: jti))
            let box = Mutex<Result<ProofIDRecording, StateStoreError>?>(nil)
            failover.recordProofID(key, client: client, keepFor: .seconds(71)) { result in
                box.withLock { $0 = result }
            }
            return box.withLock { $0 }
        }
        #expect(try record("jti-a") == .success(.recorded))
        #expect(try record("jti-b") == .success(.recorded))
        #expect(try record("jti-a") == .success(.seenBefore))
        remote.failing.store(true, ordering: .relaxed)
        #expect(try record("jti-c") == .success(.recorded))
        #expect(try record("jti-d") == .success(.noRoom(retryAfterSeconds: 71)))
    }
    static let limit = BucketLimit(ratePerSecond: 1, burst: 1)

    @Test func openModeServesFromMemoryWhileTheStoreIsDownAndSkipsTheStore() throws {
        let setup = Setup(.open)
        setup.remote.failing.store(true, ordering: .relaxed)
        #expect(
            try setup.result {
                setup.failover.claim(Self.key, inFlightFor: .seconds(5), completion: $0)
            }?.get() == .claimed)
        #expect(!setup.failover.health.isUp)
        #expect(setup.failover.isReady)
        let calls = setup.remote.calls.load(ordering: .relaxed)
        #expect(
            try setup.result {
                setup.failover.claim(Self.key, inFlightFor: .seconds(5), completion: $0)
            }?.get() == .inFlight)
        #expect(setup.remote.calls.load(ordering: .relaxed) == calls)  // no wait on a dead store
    }

    @Test func closedModeHandsTheErrorOnButRateLimitsFallBack() throws {
        let setup = Setup(.closed)
        setup.remote.failing.store(true, ordering: .relaxed)
        let claim = setup.result {
            setup.failover.claim(Self.key, inFlightFor: .seconds(5), completion: $0)
        }
        guard case .failure(let error)? = claim else {
            Issue.record("closed mode served a claim without the store")
            return
        }
        #expect(GrantError(error).status == .serviceUnavailable)
        #expect(GrantError(error).response.headers["Retry-After"] == "1")
        #expect(!setup.failover.isReady)
        #expect(
            try setup.result { setup.failover.take(Self.key, limit: Self.limit, completion: $0) }?
                .get() == .allowed)
        #expect(
            try setup.result { setup.failover.take(Self.key, limit: Self.limit, completion: $0) }?
                .get() != .allowed)
        guard
            case .failure? = setup.result({
                setup.failover.poll(
                    Self.key, initialInterval: 5, lifetime: .seconds(60), completion: $0)
            })
        else {
            Issue.record("closed mode served a device poll without the store")
            return
        }
    }

    @Test func oneWarningLineWhenTheStoreGoesAndOneWhenItIsBackWhateverTheRequests() async throws {
        let setup = Setup(.open)
        #expect(
            try setup.result { setup.failover.contains(Self.key, completion: $0) }?.get() == false)
        setup.remote.failing.store(true, ordering: .relaxed)
        for _ in 0..<20 {
            _ = setup.result { setup.failover.take(Self.key, limit: Self.limit, completion: $0) }
            _ = setup.result {
                setup.failover.claim(Self.key, inFlightFor: .seconds(5), completion: $0)
            }
        }
        setup.remote.failing.store(false, ordering: .relaxed)
        // Nothing is sent to the store while it is down: the PING notices it is back.
        setup.failover.health.succeeded()
        for _ in 0..<20 {
            _ = setup.result { setup.failover.contains(Self.key, completion: $0) }
        }
        let warnings = setup.logs.all.filter { $0.contains("state store") }
        #expect(warnings.filter { $0.contains("unreachable") }.count == 1, "\(warnings)")
        #expect(warnings.filter { $0.contains("state store is back") }.count == 1, "\(warnings)")
        #expect(!warnings.joined().contains("token"))
        let text = String(decoding: await setup.metrics.exposition(), as: UTF8.self)
        #expect(text.contains("\ntokenswap_state_store_up 1.0"))
        #expect(text.contains(#"tokenswap_state_store_errors_total{operation="take"} 1"#))
    }
}
