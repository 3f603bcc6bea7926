/// A fixed byte buffer owned by one event loop, reused by every read on that loop.
///
/// `@unchecked Sendable` is sound: it is created once, never resized, and only touched
/// from its loop's serial queue (`SocketChannel.receive` runs there and asserts it), so
/// no two threads ever access the bytes at the same time.
final class ReceiveScratch: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }
}
