import RESPClient
import Sealing
import Synchronization
import Transport

/// `StateStore` over a Redis-compatible store (`TOKENSWAP_STATE_URL`, Redis ≥ 6 or
/// Valkey; CONTRACT §12): every copy that shares it behaves as one service.
///
/// Each operation is one command: a Lua script where copies race or where the answer
/// depends on what is there (claims, buckets, polls, generations: `StateScript`), plain
/// `SET … NX PX`, `EXISTS` and `DEL` where one command is already atomic. Scripts run by
/// `EVALSHA`; the first call of each runs by `EVAL` while `SCRIPT LOAD` learns its digest
/// (this target has no SHA-1), and a `NOSCRIPT` (the server restarted or flushed its
/// scripts) falls back to `EVAL`, which loads it again.
///
/// Keys are `StateKey.description` (digests); values are what the caller gives (kept
/// answers sealed by the caller). Every call runs under the client's deadline
/// (`TOKENSWAP_STATE_TIMEOUT_MS`); every failure, and every reply that is not what the
/// command or script answers, is a `StateStoreError` naming the operation, never a crash.
package final class RedisStateStore: StateStore {
    /// Sends one command (the `RESPClient`'s `send`, or a test's fake).
    package typealias Sender =
        @Sendable ([[UInt8]], @escaping @Sendable (Result<RESPValue, RESPError>) -> Void) -> Void

    private let sender: Sender
    /// Where `awaitAnswer`'s pollers wait between looks (a timer, never a blocked loop).
    let loops: EventLoopGroup
    private let scripts = ScriptDigests()
    /// This copy's requests waiting on refreshes in flight, one poller per waited key
    /// (`StoreWaiters`).
    let waiters: StoreWaiters

    /// The pause between two looks of one waited key: CONTRACT §12's bound, at most 10
    /// commands a second for a waiting request, met for every waiter of a key together.
    /// A waiter on this copy's own refresh does not wait for a look: the settle hands the
    /// answer over (`StoreWaiters.settled`); only a refresh in flight on another copy
    /// costs a waiter up to one pause.
    static let awaitPause = Duration.milliseconds(100)
    /// How long an answer settled without a window stays for the waiters of other copies:
    /// two of their pauses, so each looks at least once more.
    static let handoff = awaitPause * 2
    /// Keys one copy waits on at once (each with at most `maxWaitersPerKey` requests):
    /// their looks cost the store at most 10,240 commands a second from one copy. A request
    /// beyond it is answered 503 with `Retry-After: 1`, as one beyond a key's waiters is.
    package static let defaultMaxWaitedKeys = 1024

    /// - Parameters:
    ///   - maxWaitersPerKey: requests of this copy waiting on one key (CONTRACT §12: 256,
    ///     as in memory).
    ///   - maxWaitedKeys: keys this copy waits on at once.
    package init(
        loops: EventLoopGroup,
        maxWaitersPerKey: Int = MemoryStateStore.defaultMaxWaitersPerKey,
        maxWaitedKeys: Int = defaultMaxWaitedKeys, sender: @escaping Sender
    ) {
        self.loops = loops
        self.sender = sender
        self.waiters = StoreWaiters(
            maxWaitersPerKey: maxWaitersPerKey, maxKeys: maxWaitedKeys, pause: Self.awaitPause)
    }

    /// The store over `client`.
    package convenience init(client: RESPClient, loops: EventLoopGroup) {
        self.init(loops: loops) { arguments, completion in
            client.send(arguments, completion: completion)
        }
    }

    // MARK: Single flight and the replay window

    package func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        claim(key, inFlightFor: inFlightFor, operation: "claim", completion: completion)
    }

    private func claim(
        _ key: StateKey, inFlightFor: Duration, operation: String,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        let look = Self.bytes(operation == "await_answer" ? "wait" : "claim")
        run(.claim, key, [Self.milliseconds(inFlightFor), look], operation: operation) { reply in
            completion(reply.flatMap { Self.refreshClaim($0, operation: operation) })
        }
    }

    /// One look of a waited key's poller (`StoreWaiters`): `HGET key s`, a single command
    /// (the claim script counts as two in the store's own figures, `INFO commandstats`),
    /// while the refresh is in flight; once it is not, the claim script says what is
    /// there: the kept or handed-over answer, or a freed key, claimed for the oldest
    /// waiter.
    func look(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        let command = [Self.bytes("HGET"), Self.bytes(key), Self.bytes("s")]
        send(command, operation: "await_answer") { [self] reply in
            switch reply {
            case .success(.bulkString(let state?)) where state == Self.inFlightState:
                completion(.success(.inFlight))
            case .failure(let error):
                completion(.failure(error))
            default:
                claim(
                    key, inFlightFor: inFlightFor, operation: "await_answer", completion: completion
                )
            }
        }
    }

    /// The state field of a claim in flight (`StateScript.claim`).
    private static let inFlightState = Array("f".utf8)

    package func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        // An answer for the waiters only (no window: a 429, a 504) stays just long enough
        // for every waiter to look once more (waiters poll; nothing here can hand it
        // over), marked so that a new request claims the key instead of getting it.
        let handedOver = answer != nil && keepFor < .milliseconds(1)
        var arguments = [
            Self.milliseconds(handedOver ? Self.handoff : keepFor),
            Self.bytes(handedOver ? "h" : "k"),
        ]
        if let answer { arguments.append(answer) }
        run(.settle, key, arguments, operation: "settle") { [waiters] reply in
            // This copy's waiters get the answer now, whatever the store said: it is the
            // provider's answer, and single flight shares it (other copies' waiters find
            // it in the store).
            if let answer { waiters.settled(key, answer: answer).answer() }
            completion(reply.flatMap { Self.expectInteger($0, operation: "settle").map { _ in } })
        }
    }

    /// Joins this copy's waiters of `key` (`StoreWaiters`): one poller looks for all of
    /// them (`look`, which also takes a freed key for the oldest waiter) every
    /// `awaitPause`, until the key is kept or freed, or each waiter's own deadline passes
    /// (then `.inFlight`); a settle of this copy answers them at once. A request beyond
    /// the waiters a key or this copy may hold is answered `.waitersFull` at once.
    package func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void
    ) {
        let waiter = StoreWaiters.Waiter(
            deadline: deadline, inFlightFor: inFlightFor, completion: completion)
        perform(waiters.enroll(waiter, on: key, now: .now), for: key)
    }

    // MARK: Rate limits

    package func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void
    ) {
        run(.bucket, key, Self.bucketArguments(limit, "take"), operation: "take") { reply in
            completion(reply.flatMap { Self.rateDecision($0) })
        }
    }

    package func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        run(.bucket, key, Self.bucketArguments(limit, "give"), operation: "give_back") { reply in
            completion(
                reply.flatMap { Self.integers($0, count: 1, operation: "give_back").map { _ in } })
        }
    }

    // MARK: Device polls

    package func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>) -> Void
    ) {
        // Clamped as `DevicePollSchedule.poll` clamps: both come from a sealed code.
        let initial = min(max(initialInterval, 1), DevicePollSchedule.longestIntervalSeconds)
        let lifetime = min(max(lifetime, .zero), DevicePollSchedule.longestLifetime)
        let arguments = [
            Self.text(initial), Self.milliseconds(lifetime),
            Self.text(DevicePollSchedule.slowDownStepSeconds),
            Self.text(DevicePollSchedule.longestIntervalSeconds),
        ]
        run(.poll, key, arguments, operation: "poll") { reply in
            completion(reply.flatMap { Self.pollDecision($0) })
        }
    }

    package func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void
    ) {
        let arguments = [
            Self.text(DevicePollSchedule.slowDownStepSeconds),
            Self.text(DevicePollSchedule.longestIntervalSeconds),
        ]
        run(.slowDown, key, arguments, operation: "slow_down") { reply in
            completion(
                reply.flatMap { value in
                    Self.expectInteger(value, operation: "slow_down").flatMap { interval in
                        Self.slowedInterval(interval)
                    }
                })
        }
    }

    package func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        send([Self.bytes("DEL"), Self.bytes(key)], operation: "finish_polling") { reply in
            completion(
                reply.flatMap { Self.expectInteger($0, operation: "finish_polling").map { _ in } })
        }
    }

    // MARK: Seen once and generations

    /// `SET key 1 NX PX ms`: one command, already atomic.
    package func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        let command = [
            Self.bytes("SET"), Self.bytes(key), Self.bytes("1"), Self.bytes("NX"), Self.bytes("PX"),
            Self.milliseconds(keepFor, atLeast: 1),
        ]
        send(command, operation: "insert") { reply in
            completion(reply.flatMap { Self.inserted($0) })
        }
    }

    package func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void
    ) {
        send([Self.bytes("EXISTS"), Self.bytes(key)], operation: "contains") { reply in
            completion(
                reply.flatMap { value in
                    Self.expectInteger(value, operation: "contains").flatMap { count in
                        guard count == 0 || count == 1 else {
                            return .failure(Self.unexpected("contains"))
                        }
                        return .success(count == 1)
                    }
                })
        }
    }

    package func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void
    ) {
        let arguments = [Self.bytes(String(generation)), Self.milliseconds(keepFor, atLeast: 1)]
        run(.raiseGeneration, key, arguments, operation: "raise_generation") { reply in
            completion(reply.flatMap { Self.generation($0) })
        }
    }

    // MARK: Health

    /// `PING`, answered `PONG`: `FailoverStateStore`'s probe and `check-config`'s.
    package func ping(completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void) {
        send([Self.bytes("PING")], operation: "ping") { reply in
            completion(
                reply.flatMap { value in
                    guard case .simpleString("PONG") = value else {
                        return .failure(Self.unexpected("ping"))
                    }
                    return .success(())
                })
        }
    }

    // MARK: Commands

    /// One command, its failure named after `operation`.
    private func send(
        _ command: [[UInt8]], operation: String,
        completion: @escaping @Sendable (Result<RESPValue, StateStoreError>) -> Void
    ) {
        sender(command) { result in
            completion(result.mapError { StateStoreError(operation: operation, reason: "\($0)") })
        }
    }

    /// Runs `script` on `key` with `arguments`: by digest when known, else by its text
    /// (and the digest learnt for next time); a `NOSCRIPT` runs it by its text.
    private func run(
        _ script: StateScript, _ key: StateKey, _ arguments: [[UInt8]], operation: String,
        completion: @escaping @Sendable (Result<RESPValue, StateStoreError>) -> Void
    ) {
        let tail = [Self.bytes("1"), Self.bytes(key)] + arguments
        let byText = [Self.bytes("EVAL"), Array(script.body.utf8)] + tail
        guard let digest = scripts.digest(of: script) else {
            if scripts.beginLoading(script) { load(script) }
            return send(byText, operation: operation, completion: completion)
        }
        let (scripts, sender) = (self.scripts, self.sender)
        sender([Self.bytes("EVALSHA"), Self.bytes(digest)] + tail) { result in
            if case .failure(.server(let message)) = result, message.hasPrefix("NOSCRIPT") {
                scripts.forget(script)
                return sender(byText) { result in
                    completion(
                        result.mapError {
                            StateStoreError(operation: operation, reason: "\($0)")
                        })
                }
            }
            completion(result.mapError { StateStoreError(operation: operation, reason: "\($0)") })
        }
    }

    /// Whether `SCRIPT LOAD` has told this copy `script`'s digest (later calls then run
    /// it by `EVALSHA`): what a test waits for.
    func knowsDigest(of script: StateScript) -> Bool { scripts.digest(of: script) != nil }

    /// `SCRIPT LOAD`: learns `script`'s digest (40 hex digits) for `EVALSHA`.
    private func load(_ script: StateScript) {
        let scripts = self.scripts
        sender([Self.bytes("SCRIPT"), Self.bytes("LOAD"), Array(script.body.utf8)]) { result in
            guard case .success(.bulkString(let bytes?)) = result, bytes.count == 40,
                bytes.allSatisfy({ Hex.value($0) != nil })
            else { return scripts.failedLoading(script) }
            scripts.learn(String(decoding: bytes, as: UTF8.self), for: script)
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func bytes(_ key: StateKey) -> [UInt8] { Array(key.description.utf8) }
    static func text(_ number: Int) -> [UInt8] { Array(String(number).utf8) }

    /// Whole milliseconds of `duration`, at least `atLeast`, saturating at a year (a
    /// window or lifetime is minutes to a day; the store's PX takes any positive 64-bit).
    static func milliseconds(_ duration: Duration, atLeast floor: Int64 = 0) -> [UInt8] {
        let (seconds, attoseconds) = duration.components
        let year: Int64 = 365 * 86_400
        let whole =
            seconds >= year
            ? year * 1000 : max(0, seconds) * 1000 + max(0, attoseconds) / 1_000_000_000_000_000
        return Array(String(max(floor, whole)).utf8)
    }

    /// The bucket script's arguments: the rate per millisecond (a rate that is not a
    /// positive finite number refills nothing, as `TokenBucket` treats it), the burst,
    /// the step, and the longest `Retry-After`.
    static func bucketArguments(_ limit: BucketLimit, _ step: String) -> [[UInt8]] {
        let rate = limit.ratePerSecond
        let perMillisecond =
            rate.isFinite && rate > 0 ? rate / 1000 : (rate == .infinity ? 1e15 : 0)
        return [
            bytes("\(perMillisecond)"), text(limit.burst), bytes(step),
            text(Int(TokenBucket.longestRetryAfterSeconds)),
        ]
    }
}

/// A timer kept alive by its own handler until it runs (a waited key's next step).
final class HeldTimer: Sendable {
    private let timer = Mutex<LoopTimer?>(nil)

    func keep(_ timer: LoopTimer) {
        self.timer.withLock { $0 = timer }
    }

    func release() {
        _ = timer.withLock { $0.take() }
    }
}

/// The scripts' digests once `SCRIPT LOAD` told them, shared by every call.
private final class ScriptDigests: Sendable {
    private struct State {
        var digests: [String: String] = [:]
        var loading: Set<String> = []
    }

    private let state = Mutex(State())

    func digest(of script: StateScript) -> String? {
        state.withLock { $0.digests[script.name] }
    }

    /// True for the one caller that should send `SCRIPT LOAD`.
    func beginLoading(_ script: StateScript) -> Bool {
        state.withLock { $0.loading.insert(script.name).inserted }
    }

    func learn(_ digest: String, for script: StateScript) {
        state.withLock { state in
            state.digests[script.name] = digest
            state.loading.remove(script.name)
        }
    }

    func failedLoading(_ script: StateScript) {
        _ = state.withLock { $0.loading.remove(script.name) }
    }

    func forget(_ script: StateScript) {
        _ = state.withLock { $0.digests.removeValue(forKey: script.name) }
    }
}
