import COpenSSL

/// Idle keyed AES-256-GCM contexts of one key (`AES256GCM`); lives inside `SealingKey`'s
/// `Mutex`.
struct ContextPool: ~Copyable {
    /// A context that nobody is using.
    ///
    /// `@unchecked Sendable` is sound: an entry is created only for a context its holder
    /// has stopped using, and it moves into or out of the pool under the pool's mutex, so
    /// the context is never used by two threads at once.
    struct Entry: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private var idle: [Entry] = []

    mutating func take() -> Entry? {
        idle.popLast()
    }

    /// Keeps `entry` for reuse; false if the pool is full and the caller must free it.
    mutating func give(_ entry: Entry, limit: Int) -> Bool {
        guard idle.count < limit else { return false }
        idle.append(entry)
        return true
    }

    mutating func freeAll() {
        for entry in idle { tokenswap_gcm_free(entry.pointer) }
        idle.removeAll()
    }
}
