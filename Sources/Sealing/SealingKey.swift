import COpenSSL
import Synchronization

/// One AES-256 key of a key ring, in memory this type allocates itself so that it can
/// be wiped with `OPENSSL_cleanse` when the key is released (Swift arrays may be copied
/// or moved by the runtime and never wiped), plus a small pool of OpenSSL contexts
/// already keyed with it, so an operation does not pay for key set-up.
///
/// `@unchecked Sendable` is sound: `storage` is written only inside `init`, before the
/// instance is shared, and only read afterwards until `deinit`, which runs when no
/// other reference exists; reads of immutable memory need no synchronisation. The
/// pooled contexts are mutable, but each is owned by exactly one party at a time: it is
/// handed out and taken back under the `Mutex`, which orders the uses on different
/// threads.
final class SealingKey: @unchecked Sendable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    static let byteCount = 32
    /// Contexts kept for reuse; more than the threads that seal at once would be waste.
    static let maxPooledContexts = 32

    let id: String
    private let storage: UnsafeMutableRawBufferPointer
    private let pool = Mutex(ContextPool())

    /// Allocates the key and lets `fill` write exactly `byteCount` bytes into it; returns
    /// nil (after wiping) if `fill` reports failure.
    init?(id: String, fill: (UnsafeMutableRawBufferPointer) -> Bool) {
        let storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.byteCount, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        // Fail before `self` is fully initialised: deinit then does not run, so the
        // buffer is wiped and freed exactly once, here.
        guard fill(storage) else {
            Self.wipe(storage)
            return nil
        }
        self.id = id
        self.storage = storage
    }

    deinit {
        // tokenswap_gcm_free wipes each context's copy of the key schedule.
        pool.withLock { $0.freeAll() }
        Self.wipe(storage)
    }

    private static func wipe(_ storage: UnsafeMutableRawBufferPointer) {
        // OPENSSL_cleanse, unlike a plain loop, is not removed by the optimiser.
        OPENSSL_cleanse(storage.baseAddress, storage.count)
        storage.deallocate()
    }

    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    /// Runs `body` with a context keyed with this key, for this thread alone. A context
    /// that saw any failure is freed rather than reused, so no half-finished state can
    /// leak into a later operation.
    func withKeyedContext<R>(_ body: (OpaquePointer) throws(SealingError) -> R)
        throws(SealingError) -> R
    {
        let pooled = pool.withLock { $0.take() }
        guard
            let context = pooled?.pointer
                ?? AES256GCM.keyedContext(key: UnsafeRawBufferPointer(storage))
        else { throw .cryptoUnavailable }
        let result: R
        do {
            result = try body(context)
        } catch {
            tokenswap_gcm_free(context)
            throw error
        }
        let handed = ContextPool.Entry(pointer: context)
        let kept = pool.withLock { $0.give(handed, limit: Self.maxPooledContexts) }
        if !kept { tokenswap_gcm_free(context) }
        return result
    }

    var description: String { "SealingKey(\(id))" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
