import Synchronization
import Transport

/// The requests of one copy that wait on refreshes in flight in the shared store (CONTRACT
/// §12 "Single flight"), by key: each waited key has one list of waiters and one poller,
/// so the store sees one look per `RedisStateStore.awaitPause` for a key however many
/// requests wait on it (at most 10 commands a second per waited key, and so per waiting
/// request), and a settle made by this copy hands its answer to this copy's waiters at
/// once, without a look.
///
/// Bounded, so that nothing a client sends grows memory without bound: at most
/// `maxWaitersPerKey` requests wait on one key (256, as in memory) and at most `maxKeys`
/// keys are waited on at once; a request beyond either is answered `.waitersFull` at once
/// (503 with `Retry-After: 1`).
///
/// Pure bookkeeping under one lock: every decision is made under it and acted on after it
/// (a look sent, a timer set, waiters answered), so no completion runs under the lock.
final class StoreWaiters: Sendable {
    /// One request waiting, answered exactly once: it is in one entry's list until it is
    /// taken out to be answered.
    struct Waiter: Sendable {
        let deadline: Deadline
        let inFlightFor: Duration
        let completion: @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    }

    /// A waited key: its waiters, oldest first, and its poller's state.
    private struct Entry {
        /// Tells this entry from a later one of the same key: a timer or a look of an
        /// entry already gone finds another id and does nothing.
        let id: UInt64
        var waiters: [Waiter]
        /// When the poller last looked (the request's own claim counts as the first look).
        var lastLook: Deadline
        /// A look is in flight: its answer sets the next step.
        var looking = false
        /// The pending timer's number and when it fires; a timer whose number is no longer
        /// this one does nothing.
        var timer: UInt64 = 0
        var timerAt: Deadline?

        /// When the poller should next act: its next look, or sooner a waiter's deadline.
        func nextStep(pause: Duration) -> Deadline {
            let look = Deadline.after(pause, from: lastLook)
            return waiters.reduce(look) { $0.earlier($1.deadline) }
        }
    }

    private struct State {
        var entries: [StateKey: Entry] = [:]
        var nextID: UInt64 = 0
    }

    /// What the caller does after a decision, outside the lock.
    struct Steps: Sendable {
        var answers: [(Waiter, Result<RefreshClaim, StateStoreError>)] = []
        /// Send a look for the entry `id` of the key, claiming for `inFlightFor`.
        var look: (id: UInt64, inFlightFor: Duration)?
        /// Set a timer for the entry `id` of the key, numbered `number`.
        var timer: (id: UInt64, number: UInt64, at: Deadline)?
        /// A look of an entry already gone claimed the key: free it again.
        var release = false

        /// Answers the waiters (the completions run here, outside the lock).
        func answer() {
            for (waiter, result) in answers { waiter.completion(result) }
        }
    }

    let maxWaitersPerKey: Int
    let maxKeys: Int
    let pause: Duration
    private let state = Mutex(State())
    /// Keys waited on, as of the last change: lets a settle with nobody waiting (nearly
    /// every refresh) skip the lock. A waiter that enrolls as a settle passes it by is
    /// answered by its poller's next look instead.
    private let waitedKeys = Atomic<Int>(0)

    init(maxWaitersPerKey: Int, maxKeys: Int, pause: Duration) {
        self.maxWaitersPerKey = max(1, maxWaitersPerKey)
        self.maxKeys = max(1, maxKeys)
        self.pause = pause
    }

    /// Keys waited on right now (for tests and the bound).
    var keyCount: Int { state.withLock { $0.entries.count } }

    /// `body` on the table, under its lock, the count of waited keys kept up to date.
    private func changing(_ body: (inout State) -> Steps) -> Steps {
        state.withLock { state in
            let steps = body(&state)
            waitedKeys.store(state.entries.count, ordering: .relaxed)
            return steps
        }
    }

    /// Waiters on `key` right now (for tests).
    func waiterCount(_ key: StateKey) -> Int {
        state.withLock { $0.entries[key]?.waiters.count ?? 0 }
    }

    /// Adds `waiter` to the waiters of `key`, whose claim just answered in flight at `now`:
    /// the first waiter of a key starts its poller (a timer for the first look, one pause
    /// after that claim); a request beyond the bounds is answered `.waitersFull`.
    func enroll(_ waiter: Waiter, on key: StateKey, now: Deadline) -> Steps {
        changing { state in
            var steps = Steps()
            if var entry = state.entries[key] {
                guard entry.waiters.count < maxWaitersPerKey else {
                    steps.answers.append((waiter, .success(.waitersFull)))
                    return steps
                }
                entry.waiters.append(waiter)
                // A deadline sooner than the pending timer moves it (looks keep their pace).
                if !entry.looking, let at = entry.timerAt, waiter.deadline < at {
                    steps.timer = Self.arm(&entry, at: waiter.deadline)
                }
                state.entries[key] = entry
                return steps
            }
            guard state.entries.count < maxKeys else {
                steps.answers.append((waiter, .success(.waitersFull)))
                return steps
            }
            state.nextID &+= 1
            var entry = Entry(id: state.nextID, waiters: [waiter], lastLook: now)
            steps.timer = Self.arm(&entry, at: entry.nextStep(pause: pause))
            state.entries[key] = entry
            return steps
        }
    }

    /// The timer `number` of the entry `id` fired at `now`: waiters whose deadline passed
    /// are answered `.inFlight`; then the poller looks if a pause has passed since its
    /// last look, else sets its timer again.
    func timerFired(_ key: StateKey, id: UInt64, number: UInt64, now: Deadline) -> Steps {
        changing { state in
            var steps = Steps()
            guard var entry = state.entries[key], entry.id == id, entry.timer == number,
                !entry.looking
            else { return steps }
            entry.timerAt = nil
            Self.expire(&entry, now: now, into: &steps)
            guard !entry.waiters.isEmpty else {
                state.entries[key] = nil
                return steps
            }
            if !Deadline.after(pause, from: entry.lastLook).hasPassed(at: now) {
                steps.timer = Self.arm(&entry, at: entry.nextStep(pause: pause))
            } else {
                entry.looking = true
                entry.lastLook = now
                steps.look = (id, entry.waiters[0].inFlightFor)
            }
            state.entries[key] = entry
            return steps
        }
    }

    /// What the look of the entry `id` found, at `now`: still in flight (the poller goes
    /// on, answering waiters whose deadline passed), freed and now claimed (the oldest
    /// waiter holds the claim and calls the provider; the others wait for it), or kept
    /// or failed (every waiter gets it).
    func looked(
        _ key: StateKey, id: UInt64, _ result: Result<RefreshClaim, StateStoreError>,
        now: Deadline
    ) -> Steps {
        changing { state in
            var steps = Steps()
            guard var entry = state.entries[key], entry.id == id, entry.looking else {
                // The entry's waiters were answered meanwhile (a settle of this copy): a
                // claim this look took belongs to nobody.
                if case .success(.claimed) = result { steps.release = true }
                return steps
            }
            entry.looking = false
            switch result {
            case .success(.inFlight):
                Self.expire(&entry, now: now, into: &steps)
            case .success(.claimed):
                steps.answers.append((entry.waiters.removeFirst(), result))
                Self.expire(&entry, now: now, into: &steps)
            default:
                steps.answers += entry.waiters.map { ($0, result) }
                entry.waiters = []
            }
            guard !entry.waiters.isEmpty else {
                state.entries[key] = nil
                return steps
            }
            steps.timer = Self.arm(&entry, at: entry.nextStep(pause: pause))
            state.entries[key] = entry
            return steps
        }
    }

    /// This copy settled `key` with `answer` (kept, or handed to the waiters only): every
    /// waiter of it gets the answer now, and its poller stops.
    func settled(_ key: StateKey, answer: [UInt8]) -> Steps {
        guard waitedKeys.load(ordering: .relaxed) > 0 else { return Steps() }
        return changing { state in
            var steps = Steps()
            guard let entry = state.entries.removeValue(forKey: key) else { return steps }
            steps.answers = entry.waiters.map { ($0, .success(.kept(answer: answer, age: .zero))) }
            return steps
        }
    }

    /// Takes the waiters whose deadline passed out of `entry`, answered `.inFlight`.
    private static func expire(_ entry: inout Entry, now: Deadline, into steps: inout Steps) {
        guard entry.waiters.contains(where: { $0.deadline.hasPassed(at: now) }) else { return }
        var waiting: [Waiter] = []
        for waiter in entry.waiters {
            if waiter.deadline.hasPassed(at: now) {
                steps.answers.append((waiter, .success(.inFlight)))
            } else {
                waiting.append(waiter)
            }
        }
        entry.waiters = waiting
    }

    /// Numbers a new timer for `entry` at `at` (any earlier one is void from now on).
    private static func arm(_ entry: inout Entry, at: Deadline)
        -> (id: UInt64, number: UInt64, at: Deadline)
    {
        entry.timer &+= 1
        entry.timerAt = at
        return (entry.id, entry.timer, at)
    }
}

extension RedisStateStore {
    /// Does what `waiters` decided: answers, then the look or the timer of the poller of
    /// `key`, or frees a claim nobody holds.
    func perform(_ steps: StoreWaiters.Steps, for key: StateKey) {
        steps.answer()
        if let (id, inFlightFor) = steps.look {
            look(key, inFlightFor: inFlightFor) { [self] result in
                perform(waiters.looked(key, id: id, result, now: .now), for: key)
            }
        }
        if let (id, number, at) = steps.timer {
            let loop = loops.loops.first(where: \.inLoop) ?? loops.next()
            // A `LoopTimer` released is cancelled: the handler holds its own until it runs.
            let held = HeldTimer()
            held.keep(
                loop.schedule(at: at) { [self] in
                    held.release()
                    perform(waiters.timerFired(key, id: id, number: number, now: .now), for: key)
                })
        }
        if steps.release {
            settle(key, answer: nil, keepFor: .zero) { _ in }
        }
    }
}
