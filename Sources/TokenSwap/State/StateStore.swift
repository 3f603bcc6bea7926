import Sealing
import Transport

/// The one interface behind every piece of state that outlives a request (CONTRACT §12,
/// ARCHITECTURE "TokenSwap"): the replay window and single flight of refreshes, the rate
/// limits, the device-poll bookkeeping of §7, DPoP proof ids (§13) and revoked grant
/// families and their generations (§14).
///
/// Two implementations: `MemoryStateStore` (the default: one copy, process-wide, bounded)
/// and `RedisStateStore` (`TOKENSWAP_STATE_URL`: every copy that shares it behaves as one
/// service), the latter behind `FailoverStateStore`, which applies
/// `TOKENSWAP_STATE_FAILURE` when the store is down.
///
/// The operations are the features' own, not a key-value API: each is one atomic step in
/// either implementation (a lock in memory; one Lua script or one `SET … NX PX` in the
/// store), so two copies racing for the same key never both win.
///
/// Every operation answers by callback, exactly once, from any thread: the memory store
/// answers before it returns (no task, no hop on the refresh path), the remote store from
/// its connection's loop. A failure is a `StateStoreError`; what it means for the request
/// (fall back to memory, or answer 503) is `FailoverStateStore`'s decision, not the
/// caller's.
///
/// Keys are `StateKey`s: digests, never a token, code or address in the clear. Values that
/// hold anything secret (a kept answer) are sealed by the caller before they get here.
package protocol StateStore: Sendable {
    // MARK: Single flight and the replay window (CONTRACT §12)

    /// Claims the refresh of `key`: when nothing is kept under it, marks it in flight for
    /// at most `inFlightFor` (a claimant that dies frees the key then) and answers
    /// `.claimed`, and the caller calls the provider and then `settle`. Otherwise answers
    /// what is there: `.inFlight` (another request, on this copy or another, is calling
    /// the provider: `awaitAnswer`) or `.kept` (a settled answer within its window).
    func claim(
        _ key: StateKey, inFlightFor: Duration,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void)

    /// Ends the claim of `key`: with `answer` (sealed by the caller) kept for `keepFor`,
    /// or with nil (nothing to keep: a 429, a 5xx, a refused proof) the key is freed.
    /// Waiters of `awaitAnswer` are answered either way. A `keepFor` of zero hands `answer`
    /// to the waiters only (`.kept`, age zero) and frees the key: single flight shares
    /// every answer of the call in flight (a 429, a 504), the window keeps only some.
    func settle(
        _ key: StateKey, answer: [UInt8]?, keepFor: Duration,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void)

    /// Waits until the claim on `key` is settled or `deadline` passes, and answers what is
    /// kept then: `.kept` with the answer, `.claimed` when the key was freed (the caller
    /// now holds the claim and calls the provider itself), or `.inFlight` when the
    /// deadline passed first.
    func awaitAnswer(
        _ key: StateKey, inFlightFor: Duration, until deadline: Deadline,
        completion: @escaping @Sendable (Result<RefreshClaim, StateStoreError>) -> Void)

    // MARK: Rate limits (TOKENSWAP_RATE_LIMIT, _DEVICE_RATE_LIMIT, _INTROSPECTION_RATE_LIMIT)

    /// Takes one token from the bucket `key` (`limit` says its rate and burst); `.limited`
    /// leaves the bucket as it was.
    func take(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<RateDecision, StateStoreError>) -> Void)

    /// Gives back the token `take` took (a limit that counts outcomes known only later).
    func giveBack(
        _ key: StateKey, limit: BucketLimit,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void)

    // MARK: Device polls (RFC 8628 §3.5, CONTRACT §7)

    /// Records a poll of the device code `key` now and decides it (`DevicePollSchedule`'s
    /// rules: too soon is `slow_down` and raises the interval by 5 s, saturating at an
    /// hour); the entry lives `lifetime`.
    func poll(
        _ key: StateKey, initialInterval: Int, lifetime: Duration,
        completion:
            @escaping @Sendable (Result<DevicePollSchedule.Decision, StateStoreError>)
            -> Void)

    /// The provider said `slow_down`: raises the interval of `key` as a local one would,
    /// and answers the new interval (nil: no entry).
    func providerAskedToSlowDown(
        _ key: StateKey, completion: @escaping @Sendable (Result<Int?, StateStoreError>) -> Void)

    /// The flow of `key` ended (tokens, denied, expired): forget it.
    func finishPolling(
        _ key: StateKey, completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void)

    // MARK: Seen once (DPoP proof ids, CONTRACT §13) and revoked families (§14)

    /// Records `key` for `keepFor` if it is not recorded yet, and answers whether this
    /// call recorded it (false: it was there already, a replay).
    func insertIfAbsent(
        _ key: StateKey, keepFor: Duration,
        completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void)

    /// Whether `key` is recorded (and not expired).
    func contains(
        _ key: StateKey, completion: @escaping @Sendable (Result<Bool, StateStoreError>) -> Void)

    // MARK: Generations of a family (reuse detection, CONTRACT §14)

    /// Raises the newest generation recorded for `key` to `generation` if it is higher
    /// (kept for `keepFor`), and answers the newest generation before this call (0: none).
    func raiseGeneration(
        _ key: StateKey, to generation: UInt64, keepFor: Duration,
        completion: @escaping @Sendable (Result<UInt64, StateStoreError>) -> Void)
}

/// What a claim found under a refresh's key.
package enum RefreshClaim: Sendable, Equatable {
    /// The caller holds the claim: call the provider, then `settle`.
    case claimed
    /// Another request holds it: wait (`awaitAnswer`).
    case inFlight
    /// A settled answer within its window, sealed as the caller gave it to `settle`, and
    /// how long ago it was settled (for `expires_in`'s count-down).
    case kept(answer: [UInt8], age: Duration)
}

/// A token bucket's rate and burst: part of the call, so one store holds every limit's
/// buckets (the namespace of the key tells them apart).
package struct BucketLimit: Sendable, Equatable {
    package let ratePerSecond: Double
    package let burst: Int

    package init(ratePerSecond: Double, burst: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = max(1, burst)
    }
}

/// A key in the state store: a namespace and the SHA-256 of the value it stands for (a
/// sealed token, a device code, a client's address, a proof id, a family id), so that
/// nothing the store holds names a token, a code or a client. Written `ts:<ns>:<hex>`.
package struct StateKey: Hashable, Sendable, CustomStringConvertible {
    package let namespace: StateNamespace
    /// The SHA-256 of the namespace's scope and the value, 32 bytes.
    package let digest: [UInt8]

    /// The key for `value` in `namespace`; `scope` (a provider's name, a limit's name)
    /// keeps equal values of different scopes apart. Nil only when OpenSSL cannot digest
    /// (the caller answers as for an unavailable store).
    package init?(_ namespace: StateNamespace, scope: String = "", value: some StringProtocol) {
        self.namespace = namespace
        var input = Array(namespace.rawValue.utf8)
        input.append(0)
        input.append(contentsOf: scope.utf8)
        input.append(0)
        input.append(contentsOf: value.utf8)
        guard let digest = SHA256.digest(input) else { return nil }
        self.digest = digest
    }

    /// The digest is SHA-256, already uniform: its first eight bytes (and the namespace)
    /// are hash enough for a table, where hashing all 32 bytes cost a hasher round each.
    /// Equality still compares the whole digest.
    package func hash(into hasher: inout Hasher) {
        var prefix: UInt64 = 0
        for byte in digest.prefix(8) { prefix = prefix << 8 | UInt64(byte) }
        hasher.combine(prefix)
        hasher.combine(namespace)
    }

    /// `ts:<ns>:<64 hex digits>`: the store's key.
    package var description: String {
        "ts:\(namespace.rawValue):" + Hex.encode(digest)
    }
}

/// What a key stands for; also the first part of its text in the store.
package enum StateNamespace: String, Sendable, CaseIterable {
    /// A refresh's single flight and kept answer: the sealed token (or device code) and
    /// the request it came with.
    case refresh = "r"
    /// A rate limit's bucket: the limit's name and the client's key.
    case rateLimit = "l"
    /// A device code's poll schedule.
    case devicePoll = "d"
    /// A DPoP proof's `jti` at one provider.
    case proofID = "j"
    /// A revoked grant family.
    case revokedFamily = "v"
    /// The newest generation of a grant family.
    case familyGeneration = "g"
}

/// A store operation that did not complete: the store refused, reset, timed out or
/// answered something that is not the protocol. Never holds a key's value or a reply's
/// bytes: `reason` is the class of failure and the store's own error text.
package struct StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation, as the `operation` label of `tokenswap_state_store_errors_total`.
    package let operation: String
    package let reason: String

    package init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    package var description: String { "state store \(operation) failed: \(reason)" }
}
