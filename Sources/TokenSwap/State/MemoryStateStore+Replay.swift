import Synchronization
import Transport

/// What the replay table holds under a refresh's key (CONTRACT §12).
enum ReplayEntry: Sendable {
    /// A request is calling the provider; the claim lapses at `until` (a claimant that
    /// never settles frees the key then), and `waiters` wait for its answer.
    case inFlight(until: Deadline, waiters: [ReplayWaiter.Held])
    /// The provider's answer, sealed by the caller, settled at `settledAt`: its bytes lie
    /// in the shard's ring (`ReplayShard`, `KeptRing`).
    case kept(answer: KeptRing.Span, settledAt: Deadline)
}

/// One request waiting in `awaitAnswer`: answered exactly once, by the settle it waits
/// for, by the lapse of the claim, by eviction, or by its own deadline, whichever comes
/// first (the flag makes every later attempt a no-op, so a timer that fires after a
/// settle costs nothing).
final class ReplayWaiter: Sendable {
    let key: StateKey
    let deadline: Deadline
    let inFlightFor: Duration
    private let completion: @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    private let answered = Atomic<Bool>(false)

    /// A waiter as its entry holds it, with the handle of its timer: dropped with the
    /// waiter, so an answered waiter's timer is cancelled (`StateTimers`).
    struct Held: Sendable {
        let waiter: ReplayWaiter
        let timer: (any Sendable)?
    }

    init(
        key: StateKey, deadline: Deadline, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        self.key = key
        self.deadline = deadline
        self.inFlightFor = inFlightFor
        self.completion = completion
    }

    var isAnswered: Bool { answered.load(ordering: .acquiring) }

    func answer(_ claim: RefreshClaim) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        completion(.success(claim))
    }
}

/// Answers decided under a shard's lock and delivered after it is released, and the
/// evictions to count then.
private struct Deliveries: Sendable {
    var answers: [(waiter: ReplayWaiter, claim: RefreshClaim)] = []
    var evictions = 0

    init(_ answers: [(waiter: ReplayWaiter, claim: RefreshClaim)] = []) {
        self.answers = answers
    }

    static func + (lhs: Deliveries, rhs: Deliveries) -> Deliveries {
        var sum = lhs
        sum.answers += rhs.answers
        sum.evictions += rhs.evictions
        return sum
    }
}

extension MemoryStateStore {
    package func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        let now = clock()
        var evicted = ReplayShard.Evicted()
        let claim: RefreshClaim = replay.withShard(of: key) { table in
            // One lookup: a free key is held for this request at once.
            let until = Self.until(inFlightFor, from: now)
            let found = table.valueOrInsert(
                .inFlight(until: until, waiters: []), for: key, expiresAt: until, now: now,
                evicted: &evicted)
            switch found {
            case nil:
                return .claimed
            case .kept(let span, let settledAt):
                return .kept(answer: table.answer(span), age: now.duration(since: settledAt))
            case .inFlight(let until, _) where !until.hasPassed(at: now):
                return .inFlight
            case .inFlight(_, let waiters):
                // The claimant never settled: the key is free again, and this request
                // holds it now; the waiters go on waiting, for this claim.
                Self.hold(key, inFlightFor, waiters, in: &table, now: now, evicted: &evicted)
                return .claimed
            }
        }
        deliver([], evicted: evicted)
        completion(.success(claim))
    }

    package func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        let now = clock()
        var evicted = ReplayShard.Evicted()
        let answers: [(waiter: ReplayWaiter, claim: RefreshClaim)] = replay.withShard(of: key) {
            table in
            guard let answer, keepFor > .zero else {
                let removed = table.remove(key, now: now)
                guard let answer else {
                    return Self.freed(key, removed, in: &table, now: now, evicted: &evicted)
                }
                // Shared, not kept: the waiters of this call get it, the next request finds
                // the key free.
                return Self.shared(answer, with: removed)
            }
            let expiresAt = Deadline.after(keepFor, from: now)
            // One lookup: the claim is replaced by the kept answer.
            let previous = table.keep(
                answer, for: key, expiresAt: expiresAt, now: now, evicted: &evicted)
            return Self.shared(answer, with: previous)
        }
        deliver(answers, evicted: evicted)
        completion(.success(()))
    }

    /// `settle` with the answer sealed straight into the shard's ring, under its lock: no
    /// array for it, no copy of it. An answer not kept (`keepFor` zero) goes to this call's
    /// waiters only, as bytes: the default (`StateStore`), which seals into an array.
    package func settle(
        _ key: StateKey, sealing byteCount: Int, keepFor: Duration,
        seal: (UnsafeMutableRawBufferPointer) -> Bool,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        guard keepFor > .zero else {
            return settle(
                key, answer: Self.sealed(byteCount, by: seal), keepFor: .zero,
                completion: completion)
        }
        let now = clock()
        var evicted = ReplayShard.Evicted()
        let answers: [(waiter: ReplayWaiter, claim: RefreshClaim)] = replay.withShard(of: key) {
            table in
            let expiresAt = Deadline.after(keepFor, from: now)
            switch table.keep(
                count: byteCount, for: key, expiresAt: expiresAt, now: now, evicted: &evicted,
                write: seal)
            {
            case .kept(let previous, let span):
                return Self.shared(table.answer(span), with: previous)
            case .notKept(let removed):
                return Self.freed(key, removed, in: &table, now: now, evicted: &evicted)
            }
        }
        deliver(answers, evicted: evicted)
        completion(.success(()))
    }

    /// The answers owed to the waiters of `entry` (a claim just settled) when `answer` is
    /// what its call got: the same answer for each, read only when there are some.
    private static func shared(_ answer: @autoclosure () -> [UInt8], with entry: ReplayEntry?)
        -> [(waiter: ReplayWaiter, claim: RefreshClaim)]
    {
        guard case .inFlight(_, let waiters)? = entry, !waiters.isEmpty else { return [] }
        let answer = answer()
        return waiters.map { ($0.waiter, .kept(answer: answer, age: .zero)) }
    }

    /// The answers owed when the claim on `key` (its entry `removed`) ends with no answer:
    /// the first waiter takes the claim and calls the provider itself; the others wait for
    /// it.
    private static func freed(
        _ key: StateKey, _ removed: ReplayEntry?, in table: inout ReplayShard, now: Deadline,
        evicted: inout ReplayShard.Evicted
    ) -> [(waiter: ReplayWaiter, claim: RefreshClaim)] {
        guard case .inFlight(_, let waiters)? = removed, let first = waiters.first else {
            return []
        }
        hold(
            key, first.waiter.inFlightFor, Array(waiters.dropFirst()), in: &table, now: now,
            evicted: &evicted)
        return [(first.waiter, .claimed)]
    }

    package func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        let waiter = ReplayWaiter(
            key: key, deadline: deadline, inFlightFor: inFlightFor, completion: completion)
        wait(waiter)
    }

    /// Decides `waiter` against what its key holds now: answered at once when the key is
    /// kept, free, lapsed, or its deadline has passed; otherwise held in the entry with a
    /// timer for the earlier of its deadline and the claim's lapse, when this runs again.
    func wait(_ waiter: ReplayWaiter) {
        guard !waiter.isAnswered else { return }
        let key = waiter.key
        let now = clock()
        let deliveries: Deliveries = replay.withShard(of: key) { table in
            switch table.value(for: key, now: now) {
            case .kept(let span, let settledAt):
                return Deliveries([
                    (waiter, .kept(answer: table.answer(span), age: now.duration(since: settledAt)))
                ])
            case nil:
                return Deliveries([(waiter, .claimed)])
                    + Self.hold(key, waiter.inFlightFor, [], in: &table, now: now)
            case .inFlight(let until, var waiters):
                waiters.removeAll { $0.waiter === waiter }
                if until.hasPassed(at: now) {
                    return Deliveries([(waiter, .claimed)])
                        + Self.hold(key, waiter.inFlightFor, waiters, in: &table, now: now)
                }
                guard !waiter.deadline.hasPassed(at: now) else {
                    _ = table.update(key) { $0 = .inFlight(until: until, waiters: waiters) }
                    return Deliveries([(waiter, .inFlight)])
                }
                guard waiters.count < maxWaitersPerKey else {
                    _ = table.update(key) { $0 = .inFlight(until: until, waiters: waiters) }
                    return Deliveries([(waiter, .waitersFull)])
                }
                let timer = timers.schedule(waiter.deadline.earlier(until)) { [self] in
                    wait(waiter)
                }
                waiters.append(ReplayWaiter.Held(waiter: waiter, timer: timer))
                _ = table.update(key) { $0 = .inFlight(until: until, waiters: waiters) }
                return Deliveries()
            }
        }
        deliver(deliveries)
    }

    /// Marks `key` in flight for `inFlightFor` from `now`, with `waiters` waiting on it;
    /// answers what an eviction this caused owes.
    private static func hold(
        _ key: StateKey, _ inFlightFor: Duration, _ waiters: [ReplayWaiter.Held],
        in table: inout ReplayShard, now: Deadline
    ) -> Deliveries {
        var evicted = ReplayShard.Evicted()
        hold(key, inFlightFor, waiters, in: &table, now: now, evicted: &evicted)
        return evictionDeliveries(evicted)
    }

    /// `hold`, with what it evicted recorded in `evicted`.
    private static func hold(
        _ key: StateKey, _ inFlightFor: Duration, _ waiters: [ReplayWaiter.Held],
        in table: inout ReplayShard, now: Deadline,
        evicted: inout ReplayShard.Evicted
    ) {
        let until = until(inFlightFor, from: now)
        table.insert(
            .inFlight(until: until, waiters: waiters), for: key, expiresAt: until, now: now,
            evicted: &evicted)
    }

    /// When a claim made `now` lapses.
    private static func until(_ inFlightFor: Duration, from now: Deadline) -> Deadline {
        Deadline.after(inFlightFor, from: now)
    }

    /// An entry evicted at the cap: its waiters are told the refresh is still in flight
    /// (they answer a retryable failure rather than wait for an answer that will not be
    /// kept here). Counted by `deliver`, outside the lock.
    private static func evictionDeliveries(_ evicted: ReplayShard.Evicted) -> Deliveries {
        var deliveries = Deliveries(evicted.waiters.map { ($0, .inFlight) })
        deliveries.evictions = evicted.count
        return deliveries
    }

    /// Answers `answers`, counts the entries evicted at the cap and tells the waiters of an
    /// evicted claim the refresh is still in flight (as `evictionDeliveries` says), outside
    /// the lock, without building `Deliveries` (a refresh at a full table evicts every time).
    private func deliver(
        _ answers: [(waiter: ReplayWaiter, claim: RefreshClaim)],
        evicted: ReplayShard.Evicted
    ) {
        for _ in 0..<evicted.count { self.evicted() }
        for (waiter, claim) in answers { waiter.answer(claim) }
        for waiter in evicted.waiters { waiter.answer(.inFlight) }
    }

    private func deliver(_ deliveries: Deliveries) {
        for _ in 0..<deliveries.evictions { evicted() }
        for (waiter, claim) in deliveries.answers { waiter.answer(claim) }
    }
}
