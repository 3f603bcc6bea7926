import Synchronization
import Transport

/// The shared store with `TOKENSWAP_STATE_FAILURE` applied (CONTRACT §12 "When the store
/// fails"): every operation goes to `store` while it answers; a failed call marks it down
/// (`StateStoreHealth`: one warning line, the gauge, the error counter) and then
/// - `open` (the default): the operation is done in this copy's `memory` instead, and so
///   is every later one until the store is back: limits and the replay window become per
///   copy, and the copy keeps answering;
/// - `closed`: the error goes to the caller, which answers `503 temporarily_unavailable`
///   with `Retry-After` (`GrantError.stateUnavailable`), and `/readyz` answers 503.
///
/// While the store is down no request waits on it: calls go to memory (or fail) at once,
/// and a PING every `probeInterval` (`start`) notices when it is back. The store's
/// client reconnects by itself; the PING is what tells this wrapper.
///
/// Rate limits (`take`, `giveBack`) fall back to memory in both modes: `closed` refuses
/// only what needs the store (refreshes, device polls, revocations), and a swap or an
/// introspection stays limited per copy meanwhile rather than refused.
package final class FailoverStateStore: StateStore {
    package let store: any StateStore
    package let memory: any StateStore
    package let mode: StateFailureMode
    package let health: StateStoreHealth
    private let probe:
        @Sendable (@escaping @Sendable (Result<Void, StateStoreError>) -> Void) -> Void
    private let probeInterval: Duration
    private let prober = ProberTask()

    /// `Retry-After` of a request refused in `closed` mode: the next PING is at most a
    /// second away.
    package static let retryAfterSeconds = 1

    /// - Parameters:
    ///   - store: the shared store (`RedisStateStore`).
    ///   - memory: this copy's own state (`MemoryStateStore`), used when the store fails
    ///     in `open` mode, and for rate limits in either mode.
    ///   - probe: one PING of the store.
    package init(
        store: any StateStore, memory: any StateStore, mode: StateFailureMode,
        health: StateStoreHealth, probeInterval: Duration = .seconds(1),
        probe:
            @escaping @Sendable (@escaping @Sendable (Result<Void, StateStoreError>) -> Void)
            -> Void
    ) {
        self.store = store
        self.memory = memory
        self.mode = mode
        self.health = health
        self.probe = probe
        self.probeInterval = probeInterval
    }

    /// False while the store is down in `closed` mode: `/readyz` answers 503 then.
    package var isReady: Bool { mode == .open || health.isUp }

    /// Starts the periodic PING (idempotent); `stop` ends it.
    package func start() {
        let (probe, health, interval) = (self.probe, self.health, probeInterval)
        prober.start {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                let result = await awaiting(probe)
                switch result {
                case .success: health.succeeded()
                case .failure(let error): health.failed(error)
                }
            }
        }
    }

    package func stop() {
        prober.stop()
    }

    /// Runs `call` on the store, or where the mode says when the store is down or fails.
    private func run<Value: Sendable>(
        _ operation: String, alwaysFallsBack: Bool = false,
        _ call:
            @escaping @Sendable (
                any StateStore, @escaping @Sendable (Result<Value, StateStoreError>) -> Void
            ) -> Void,
        completion: @escaping @Sendable (Result<Value, StateStoreError>) -> Void
    ) {
        let fallsBack = alwaysFallsBack || mode == .open
        guard health.isUp else {
            if fallsBack { return call(memory, completion) }
            return completion(
                .failure(StateStoreError(operation: operation, reason: "the store is down")))
        }
        let (memory, health) = (self.memory, self.health)
        call(store) { result in
            switch result {
            case .success:
                health.succeeded()
                completion(result)
            case .failure(let error):
                health.failed(error)
                if fallsBack { call(memory, completion) } else { completion(result) }
            }
        }
    }

    package func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        run(
            "claim", { $0.claim(key, inFlightFor: inFlightFor, completion: $1) },
            completion: completion)
    }

    package func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run(
            "settle", { $0.settle(key, answer: answer, keepFor: keepFor, completion: $1) },
            completion: completion)
    }

    package func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        run(
            "await_answer",
            { $0.awaitAnswer(key, inFlightFor: inFlightFor, until: deadline, completion: $1) },
            completion: completion)
    }

    package func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
    ) {
        run(
            "take", alwaysFallsBack: true, { $0.take(key, limit: limit, completion: $1) },
            completion: completion)
    }

    package func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run(
            "give_back", alwaysFallsBack: true,
            { $0.giveBack(key, limit: limit, completion: $1) }, completion: completion)
    }

    package func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>) -> Void
    ) {
        run(
            "poll",
            {
                $0.poll(key, initialInterval: initialInterval, lifetime: lifetime, completion: $1)
            }, completion: completion)
    }

    package func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
    ) {
        run(
            "slow_down", { $0.providerAskedToSlowDown(key, completion: $1) },
            completion: completion)
    }

    package func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run("finish_polling", { $0.finishPolling(key, completion: $1) }, completion: completion)
    }

    package func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        run(
            "insert", { $0.insertIfAbsent(key, keepFor: keepFor, completion: $1) },
            completion: completion)
    }

    package func recordProofID(
        _ key: StateKey, client: ClientPrefix, keepFor: Duration,
        completion: @escaping @Sendable (Result<ProofIDRecording, StateStoreError>) -> Void
    ) {
        // Through memory's own table while the store is down: its room and shares hold.
        run(
            "insert",
            { $0.recordProofID(key, client: client, keepFor: keepFor, completion: $1) },
            completion: completion)
    }

    package func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        run("contains", { $0.contains(key, completion: $1) }, completion: completion)
    }

    package func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) {
        run(
            "raise_generation",
            { $0.raiseGeneration(key, to: generation, keepFor: keepFor, completion: $1) },
            completion: completion)
    }
}

/// The PING loop's task, started once and cancelled by `stop`.
private final class ProberTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { task in
            guard task == nil else { return }
            task = Task.detached(operation: body)
        }
    }

    func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}

extension GrantError {
    /// A store failure that reached a request: only `closed` mode lets one through
    /// (`FailoverStateStore`), and it answers 503 `temporarily_unavailable` with
    /// `Retry-After` (CONTRACT §12).
    package init(_ error: StateStoreError) {
        self = .stateUnavailable(retryAfterSeconds: FailoverStateStore.retryAfterSeconds)
    }
}
