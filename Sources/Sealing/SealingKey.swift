import COpenSSL

/// One AES-256 key of a key ring, in memory this type allocates itself so that it can
/// be wiped with `OPENSSL_cleanse` when the key is released (Swift arrays may be copied
/// or moved by the runtime and never wiped).
///
/// `@unchecked Sendable` is sound: `storage` is written only inside `init`, before the
/// instance is shared, and is only read afterwards (through `withBytes`) until `deinit`,
/// which runs when no other reference exists. Reads of immutable memory from several
/// threads need no synchronisation.
final class SealingKey: @unchecked Sendable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    static let byteCount = 32

    let id: String
    private let storage: UnsafeMutableRawBufferPointer

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

    var description: String { "SealingKey(\(id))" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
