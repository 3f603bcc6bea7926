import Transport

/// The DPoP proof ids one copy keeps in its memory (CONTRACT §13, RFC 9449 §11.1), each
/// with the client that sent its proof (`ClientPrefix`).
///
/// Nothing is ever dropped to make room: an id stays until it expires (its proof can no
/// longer pass the `iat` window), because an id dropped early lets its proof be replayed.
/// The table it replaces evicted the oldest id of a shard picked by the id's plain digest,
/// so 6,400 of an attacker's own proofs aimed at one shard evicted a captured proof's id
/// (issue 34). Instead, when `capacity` ids are held a new one is refused (`noRoom`: the
/// gate answers 503 with `Retry-After`) until the oldest expires, and no client holds
/// more than `clientShare` (a sixteenth), so one client cannot refuse everyone else.
///
/// One table, not shards: room and shares are counts over the whole table, and a table
/// split by any function of the id has parts a client can aim at and fill. Where an id
/// sits inside (`AgedTable`'s index) and the clients' counts both follow Swift's
/// per-process seeded hash, so a client chooses neither.
struct ProofIDTable: Sendable {
    /// The share of the table one client may hold: 1/16, CONTRACT §13.
    static let clientShareDivisor = 16
    /// Expired ids a record drops at most before it decides, unless it would refuse: a
    /// constant, so a record stays O(1); more than one, so the old end drains faster than
    /// it fills. A refusal first drops every expired id, so counts are exact when they
    /// refuse.
    private static let expiredDropsPerRecord = 2

    let capacity: Int
    let clientShare: Int
    /// Every id's expiry and the client that recorded it, the oldest first (and, as every
    /// id of a copy is kept for the same window, the soonest to expire first).
    private var ids: AgedTable<ClientPrefix>
    /// The ids each client holds now; a client holding none has no entry.
    private var held: [ClientPrefix: Int] = [:]

    /// `capacity` ids in all (`TOKENSWAP_DPOP_PROOF_IDS`), at least one per client share.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.clientShare = max(1, self.capacity / Self.clientShareDivisor)
        ids = AgedTable(capacity: self.capacity)
    }

    /// Ids held right now, expired ones not yet dropped included.
    var count: Int { ids.count }

    /// The ids `client` holds now (for tests of the share).
    func heldCount(by client: ClientPrefix) -> Int { held[client, default: 0] }

    /// Records `key` for `client` until `expiresAt`, unless it is held and live (a replay:
    /// `seenBefore`), or there is no room for it (`noRoom`, with the seconds until the
    /// oldest id expires: no room frees sooner).
    mutating func record(
        _ key: StateKey, client: ClientPrefix, expiresAt: Deadline, now: Deadline
    ) -> ProofIDRecording {
        dropExpired(now: now, atMost: Self.expiredDropsPerRecord)
        if let expiry = ids.expiresAt(of: key) {
            if expiry > now { return .seenBefore }
            // Expired behind a live id (one recorded earlier for a longer window).
            if let owner = ids.remove(key) { release(owner) }
        }
        if !hasRoom(for: client) {
            dropExpired(now: now, atMost: .max)
            guard hasRoom(for: client) else {
                return .noRoom(retryAfterSeconds: retryAfterSeconds(now: now))
            }
        }
        // Below the cap and absent (checked above), so it is written; and it drops nothing
        // unseen, so every client's count stays exact.
        guard ids.insertAbsent(client, for: key, expiresAt: expiresAt) else {
            return .noRoom(retryAfterSeconds: retryAfterSeconds(now: now))
        }
        held[client, default: 0] += 1
        return .recorded
    }

    /// Whether `key` is held and live at `now`.
    func contains(_ key: StateKey, now: Deadline) -> Bool {
        ids.expiresAt(of: key).map { $0 > now } ?? false
    }

    private func hasRoom(for client: ClientPrefix) -> Bool {
        ids.count < capacity && held[client, default: 0] < clientShare
    }

    /// Drops up to `limit` expired ids at the old end, each from its client's count.
    private mutating func dropExpired(now: Deadline, atMost limit: Int) {
        var dropped = 0
        while dropped < limit, let expired = ids.removeOldest(expiredBy: now) {
            release(expired.value)
            dropped += 1
        }
    }

    private mutating func release(_ client: ClientPrefix) {
        guard let count = held[client] else { return }
        held[client] = count > 1 ? count - 1 : nil
    }

    /// Whole seconds until the oldest id expires, at least 1: no id leaves sooner, so no
    /// retry before then can find room (a client at its share may wait longer: its own
    /// oldest id may be younger).
    private func retryAfterSeconds(now: Deadline) -> Int {
        guard let oldest = ids.oldestExpiresAt else { return 1 }
        // `secondsLeft` is bounded (`Deadline.maxSeconds`), so the conversion cannot trap.
        return max(1, Int(oldest.secondsLeft(from: now).rounded(.up)))
    }
}

/// What recording a proof id found (CONTRACT §13).
package enum ProofIDRecording: Sendable, Equatable {
    /// Not seen within its window: recorded, and the proof passes the replay check.
    case recorded
    /// Recorded before and still live: a replay, `400 invalid_dpop_proof`.
    case seenBefore
    /// No room: the ids in memory are at `TOKENSWAP_DPOP_PROOF_IDS`, or the client's
    /// share of them is full; `503` with `Retry-After` until room frees. The id is not
    /// recorded.
    case noRoom(retryAfterSeconds: Int)
}
