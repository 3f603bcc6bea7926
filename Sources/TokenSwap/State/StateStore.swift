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

    /// `settle`, with the answer sealed by `seal` into `byteCount` bytes where the store
    /// keeps it (`seal` answers false when it cannot seal: then as a nil answer). The
    /// memory store seals it straight into its ring; the default seals into an array and
    /// calls `settle`.
    func settle(
        _ key: StateKey, sealing byteCount: Int, keepFor: Duration,
        seal: (UnsafeMutableRawBufferPointer) -> Bool,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void)

    /// Waits until the claim on `key` is settled or `deadline` passes, and answers what is
    /// kept then: `.kept` with the answer, `.claimed` when the key was freed (the caller
    /// now holds the claim and calls the provider itself), or `.inFlight` when the
    /// deadline passed first. A copy holds a bounded number of waiters (CONTRACT §12: 256
    /// on one key); one more is answered `.waitersFull` at once.
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

    /// Records the DPoP proof id `key` for `keepFor`, sent by `client`, unless it is
    /// recorded already (CONTRACT §13). A live id is never dropped to make room: where
    /// ids are kept in a copy's memory, a full table (or a client's full share of it)
    /// answers `noRoom` instead (`ProofIDTable`). The default is `insertIfAbsent`: a store
    /// of its own (`SET … NX PX`) keeps every id for its window and has no share.
    func recordProofID(
        _ key: StateKey, client: ClientPrefix, keepFor: Duration,
        completion: @escaping @Sendable (Result<ProofIDRecording, StateStoreError>) -> Void)

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

extension StateStore {
    package func recordProofID(
        _ key: StateKey, client: ClientPrefix, keepFor: Duration,
        completion: @escaping @Sendable (Result<ProofIDRecording, StateStoreError>) -> Void
    ) {
        insertIfAbsent(key, keepFor: keepFor) { result in
            completion(result.map { $0 ? .recorded : .seenBefore })
        }
    }

    package func settle(
        _ key: StateKey, sealing byteCount: Int, keepFor: Duration,
        seal: (UnsafeMutableRawBufferPointer) -> Bool,
        completion: @escaping @Sendable (Result<Void, StateStoreError>) -> Void
    ) {
        settle(
            key, answer: Self.sealed(byteCount, by: seal), keepFor: keepFor,
            completion: completion)
    }

    /// The `byteCount` bytes `seal` writes, as an array; nil when it fails.
    static func sealed(_ byteCount: Int, by seal: (UnsafeMutableRawBufferPointer) -> Bool)
        -> [UInt8]?
    {
        var sealed = false
        let answer = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            sealed = seal(UnsafeMutableRawBufferPointer(buffer))
            initialized = sealed ? byteCount : 0
        }
        return sealed ? answer : nil
    }
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
    /// `awaitAnswer` only: this copy already holds as many requests waiting as it may (on
    /// this key, or on as many keys), so this one does not wait: it is answered 503 with
    /// `Retry-After: 1` (CONTRACT §12), and memory stays bounded whatever clients send.
    case waitersFull
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
///
/// The digest is held inline as four words (big-endian: the first word is the first eight
/// bytes), so a key is plain data: copying one into a closure or a table costs no
/// reference count, and comparing two is four word compares.
package struct StateKey: Hashable, Sendable, CustomStringConvertible {
    package let namespace: StateNamespace
    private let words: Words

    private struct Words: Hashable, Sendable {
        var first: UInt64
        var second: UInt64
        var third: UInt64
        var fourth: UInt64
    }

    /// The key for `value` in `namespace`; `scope` (a provider's name, a limit's name)
    /// keeps equal values of different scopes apart. Nil only when OpenSSL cannot digest
    /// (the caller answers as for an unavailable store).
    package init?(_ namespace: StateNamespace, scope: String = "", value: some StringProtocol) {
        var value = String(value)
        guard let key = value.withUTF8({ Self(namespace, scope: scope, utf8: $0) }) else {
            return nil
        }
        self = key
    }

    /// The key for a value given as its UTF-8, read in place: the key of the text with
    /// these bytes (a DPoP proof's `jti`, read from its claims without a `String`).
    package init?(
        _ namespace: StateNamespace, scope: String = "", utf8 value: UnsafeBufferPointer<UInt8>
    ) {
        let digested = Self.digest(namespace, scope: scope, valueCount: value.count) { buffer in
            buffer.copyMemory(from: UnsafeRawBufferPointer(value))
        }
        guard let digested else { return nil }
        self.namespace = namespace
        self.words = digested
    }

    /// The key for the lowercase hex text of `bytes` (`Hex.encode`), the digits written
    /// where they are digested: the key of that text, without the text (a family id's on
    /// every refresh, CONTRACT §14).
    package init?(_ namespace: StateNamespace, scope: String = "", hexOf bytes: [UInt8]) {
        let digested = Self.digest(namespace, scope: scope, valueCount: 2 * bytes.count) {
            buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = Hex.digit(byte >> 4)
                buffer[2 * index + 1] = Hex.digit(byte)
            }
        }
        guard let digested else { return nil }
        self.namespace = namespace
        self.words = digested
    }

    /// The key for a token this service sealed and has just opened, named by the parts its
    /// tag authenticated (`SealIdentity`) rather than by its whole text: as unique (a GCM
    /// tag under one of our keys cannot be forged and no two seals share a nonce), and a
    /// few dozen bytes to digest instead of a few hundred. A `0xFF` byte, which UTF-8 text
    /// never holds, comes first, so no text value's key can equal such a key.
    package init?(_ namespace: StateNamespace, scope: String = "", seal identity: SealIdentity) {
        let digested = Self.digest(namespace, scope: scope, valueCount: 1 + identity.byteCount) {
            buffer in
            buffer[0] = 0xFF
            identity.write(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1...]))
        }
        guard let digested else { return nil }
        self.namespace = namespace
        self.words = digested
    }

    /// SHA-256 of `namespace | 0 | scope | 0 | value`, the value's `valueCount` bytes
    /// written by `value`, in temporary memory (on the stack when small).
    private static func digest(
        _ namespace: StateNamespace, scope: String, valueCount: Int,
        _ value: (UnsafeMutableRawBufferPointer) -> Void
    ) -> Words? {
        return scope.withUTF8Bytes { scope in
            let prefixCount = namespace.rawValue.utf8.count + 1 + scope.count + 1
            return withUnsafeTemporaryAllocation(
                byteCount: prefixCount + valueCount + SHA256.byteCount, alignment: 8
            ) { buffer -> Words? in
                var offset = 0
                for byte in namespace.rawValue.utf8 {
                    buffer[offset] = byte
                    offset += 1
                }
                buffer[offset] = 0
                UnsafeMutableRawBufferPointer(rebasing: buffer[(offset + 1)...])
                    .copyMemory(from: UnsafeRawBufferPointer(scope))
                buffer[prefixCount - 1] = 0
                let inputEnd = prefixCount + valueCount
                value(UnsafeMutableRawBufferPointer(rebasing: buffer[prefixCount..<inputEnd]))
                let output = UnsafeMutableRawBufferPointer(rebasing: buffer[inputEnd...])
                guard
                    SHA256.digest(
                        UnsafeRawBufferPointer(rebasing: buffer[..<inputEnd]), into: output)
                else { return nil }
                func word(_ index: Int) -> UInt64 {
                    UInt64(
                        bigEndian: output.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
                }
                return Words(first: word(0), second: word(1), third: word(2), fourth: word(3))
            }
        }
    }

    /// The SHA-256 of the namespace's scope and the value, 32 bytes.
    package var digest: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { buffer, initialized in
            writeDigest(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = SHA256.byteCount
        }
    }

    /// Writes the digest into the first 32 bytes of `buffer` (at least that long).
    package func writeDigest(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= SHA256.byteCount)
        buffer.storeBytes(of: words.first.bigEndian, toByteOffset: 0, as: UInt64.self)
        buffer.storeBytes(of: words.second.bigEndian, toByteOffset: 8, as: UInt64.self)
        buffer.storeBytes(of: words.third.bigEndian, toByteOffset: 16, as: UInt64.self)
        buffer.storeBytes(of: words.fourth.bigEndian, toByteOffset: 24, as: UInt64.self)
    }

    /// The digest's first eight bytes, big-endian: a shard's pick (`ShardedTable`).
    package var digestPrefix: UInt64 { words.first }

    /// The digest is SHA-256, already uniform: its first eight bytes are hash enough for a
    /// table (the namespace is part of what was digested, so it adds nothing, and hashing
    /// its raw text cost more than the rest). Equality still compares the namespace and
    /// the whole digest.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.first)
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
