/// The outcome of one `SocketChannel.receive`.
package enum ReceiveResult: Sendable, Equatable {
    /// This many bytes were appended to the buffer.
    case received(Int)
    /// Nothing to read now; the read source will fire again when there is.
    case wouldBlock
    /// The peer shut down its write side (orderly EOF).
    case endOfFile
    /// The connection failed (`ECONNRESET`, `ETIMEDOUT`, …); close the channel.
    case failed(errno: Int32)
}

/// How the socket stood after `SocketChannel.receiveAvailable` read what it held.
package enum ReceiveEnd: Sendable, Equatable {
    /// Still open: nothing more to read now, or the per-event bound was reached.
    case open
    /// The peer shut down its write side (orderly EOF).
    case endOfFile
    /// The connection failed; close the channel.
    case failed(errno: Int32)
}
