import Synchronization
import TLS
import Transport

/// The keep-alive connections of one origin on one event loop: at most `maxConnections` open (idle, busy
/// or being opened); requests beyond that wait in a bounded FIFO queue. Idle connections
/// are reused most-recent first (warm TCP window, fresh in the server's idle timer);
/// connections that close are forgotten through `retire`.
final class ConnectionPool: Sendable {
    /// What `acquire` grants: an idle connection, or the right to open a new one.
    enum Lease {
        case reuse(UpstreamConnection)
        case open
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Result<Lease, HTTPClientError>, Never>
        var deadline: Deadline

        func resumeWith(_ result: Result<Lease, HTTPClientError>) {
            continuation.resume(returning: result)
        }
    }

    private struct State {
        var idle: [UpstreamConnection] = []
        var open: Set<ObjectIdentifier> = []
        /// Open connections plus openings in progress.
        var slotsInUse = 0
        var waiters: [Waiter] = []
        /// One timer for all waiters, armed for the earliest deadline among them (a timer
        /// per waiting request cost a Dispatch source and a manager-thread wake-up each).
        /// It stays armed when the queue empties, so a busy pool arms it about once per
        /// timeout rather than once per request.
        var expiryTimer: LoopTimer?
        var expiryAt: Deadline?
        var isShutDown = false
        var session: TLSSession?
    }

    let origin: Origin
    private let maxConnections: Int
    private let maxWaiters: Int
    private let state = Mutex(State())

    init(origin: Origin, maxConnections: Int, maxWaiters: Int) {
        self.origin = origin
        self.maxConnections = max(1, maxConnections)
        self.maxWaiters = max(0, maxWaiters)
    }

    /// A connection or a slot, waiting at most until `deadline` (the expiry timer runs on
    /// `timerLoop`; nothing blocks while waiting). The most recently used idle connection
    /// is taken first.
    func acquire(deadline: Deadline, timerLoop: EventLoop) async
        -> Result<Lease, HTTPClientError>
    {
        // Most requests find an idle connection or a free slot: answered without
        // suspending the caller (a continuation would cost a suspension and a resumption
        // job on the loop per request).
        if let granted = state.withLock({ Self.grant(&$0, maxConnections: maxConnections) }) {
            return granted
        }
        return await withCheckedContinuation { continuation in
            state.withLock { state in
                // Granted since the first look (a release or retire in between).
                if let granted = Self.grant(&state, maxConnections: maxConnections) {
                    continuation.resume(returning: granted)
                    return
                }
                guard state.waiters.count < maxWaiters else {
                    continuation.resume(returning: .failure(.poolExhausted))
                    return
                }
                state.waiters.append(Waiter(continuation: continuation, deadline: deadline))
                if state.expiryAt.map({ deadline < $0 }) ?? true {
                    armExpiry(&state, at: deadline, on: timerLoop)
                }
            }
        }
    }

    /// The most recently used idle connection, if there is one (`send`'s callback fast
    /// path; anything else goes through `acquire`).
    func takeIdle() -> UpstreamConnection? {
        state.withLock { state in state.isShutDown ? nil : state.idle.popLast() }
    }

    /// What can be granted at once: shutdown's failure, the most recently used idle
    /// connection, or a free slot; nil when the caller has to wait.
    private static func grant(_ state: inout State, maxConnections: Int)
        -> Result<Lease, HTTPClientError>?
    {
        if state.isShutDown { return .failure(.shutdown) }
        if let idle = state.idle.popLast() { return .success(.reuse(idle)) }
        guard state.slotsInUse < maxConnections else { return nil }
        state.slotsInUse += 1
        return .success(.open)
    }

    /// (Re-)arms the expiry timer. Under the lock: `schedule` only registers the timer, its
    /// handler runs later on `loop`.
    private func armExpiry(
        _ state: inout State, at deadline: Deadline, on loop: EventLoop
    ) {
        state.expiryTimer?.cancel()
        state.expiryAt = deadline
        state.expiryTimer = loop.schedule(at: deadline) { [self] in
            expireWaiters(timerLoop: loop)
        }
    }

    /// Fails the waiters whose deadline passed and re-arms for the earliest left.
    private func expireWaiters(timerLoop: EventLoop) {
        let expired = state.withLock { state -> [Waiter] in
            state.expiryTimer = nil
            state.expiryAt = nil
            let now = Deadline.now
            var expired: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.deadline.hasPassed(at: now) else { return false }
                expired.append(waiter)
                return true
            }
            if !state.isShutDown, let next = state.waiters.map(\.deadline).min() {
                armExpiry(&state, at: next, on: timerLoop)
            }
            return expired
        }
        for waiter in expired { waiter.resumeWith(.failure(.timeout(.exchange))) }
    }

    /// A slot granted by `.open` produced a connection (handshake done).
    func opened(_ connection: UpstreamConnection) {
        state.withLock { _ = $0.open.insert(ObjectIdentifier(connection)) }
    }

    /// A slot granted by `.open` produced no connection: pass it on.
    func openFailed() {
        let next = state.withLock { state -> Waiter? in
            state.slotsInUse -= 1
            return Self.grantSlot(&state)
        }
        next?.resumeWith(.success(.open))
    }

    /// A connection finished an exchange and is idle: hand it to the oldest waiter or
    /// keep it. A connection that closed meanwhile (already retired) is dropped.
    func release(_ connection: UpstreamConnection) {
        let next = state.withLock { state -> Waiter? in
            guard state.open.contains(ObjectIdentifier(connection)) else { return nil }
            if state.waiters.isEmpty {
                state.idle.append(connection)
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resumeWith(.success(.reuse(connection)))
        if state.withLock({ $0.isShutDown }) { connection.loop.execute { connection.close() } }
    }

    /// The connection closed (any reason); frees its slot. Idempotent.
    func retire(_ connection: UpstreamConnection) {
        let next = state.withLock { state -> Waiter? in
            guard state.open.remove(ObjectIdentifier(connection)) != nil else { return nil }
            state.idle.removeAll { $0 === connection }
            state.slotsInUse -= 1
            return Self.grantSlot(&state)
        }
        next?.resumeWith(.success(.open))
    }

    private static func grantSlot(_ state: inout State) -> Waiter? {
        guard !state.waiters.isEmpty, !state.isShutDown else { return nil }
        state.slotsInUse += 1
        return state.waiters.removeFirst()
    }

    /// The idle connections, most recently used last.
    var idleConnections: [UpstreamConnection] { state.withLock { $0.idle } }

    /// Slots taken (open connections and openings) and requests waiting for one: what a
    /// test waits on.
    var usage: (slotsInUse: Int, waiters: Int) {
        state.withLock { ($0.slotsInUse, $0.waiters.count) }
    }

    /// The TLS session to offer on the next connection (RFC 8446 §2.2).
    var session: TLSSession? {
        get { state.withLock { $0.session } }
        set { state.withLock { $0.session = newValue } }
    }

    /// Fails every waiter, closes idle connections; busy ones close when released.
    func shutdown() {
        let (waiters, idle) = state.withLock { state in
            state.isShutDown = true
            state.expiryTimer?.cancel()
            state.expiryTimer = nil
            state.expiryAt = nil
            defer {
                state.waiters = []
                state.idle = []
            }
            return (state.waiters, state.idle)
        }
        for waiter in waiters { waiter.resumeWith(.failure(.shutdown)) }
        for connection in idle { connection.loop.execute { connection.close() } }
    }
}
