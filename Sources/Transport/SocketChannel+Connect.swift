import CPosix

#if canImport(Glibc)
    import Glibc
#endif

extension SocketChannel {
    /// Opens a TCP connection to an already resolved address without blocking a thread:
    /// a non-blocking `connect`, completion when the socket turns writable, the result
    /// read from `SO_ERROR` (connect(2), "EINPROGRESS").
    ///
    /// `completion` runs exactly once, on `loop`, with the channel (TCP_NODELAY set,
    /// reading not yet started) or `.connectFailed` / `.connectTimedOut` (not connected by
    /// `deadline`) / `.system`.
    /// Resolve names first with `SocketAddress.resolve`, off the loop.
    package static func connect(
        to address: SocketAddress, on loop: EventLoop, deadline: Deadline,
        completion: @escaping @Sendable (Result<SocketChannel, TransportError>) -> Void
    ) {
        BrokenPipe.ignore()
        // Sources must be created on the loop that owns them (see the type's comment).
        loop.execute {
            let fd = tokenswap_socket_nonblocking(address.family, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else {
                return completion(.failure(.system(call: "socket", errno: errno)))
            }
            SocketOptions.enableNoDelay(fd)
            let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
            let code = result == 0 ? 0 : errno
            let channel = SocketChannel(adopting: fd, peerAddress: address, loop: loop)
            switch code {
            case 0:
                completion(.success(channel))
            // EINTR: the attempt goes on in the background; calling connect again would
            // only say EALREADY, so wait for writability exactly as for EINPROGRESS.
            case EINPROGRESS, EINTR:
                channel.finishConnect(deadline: deadline, completion: completion)
            default:
                channel.close()
                completion(.failure(.connectFailed(errno: code)))
            }
        }
    }

    /// The same as `connect(to:on:deadline:completion:)`, for async callers.
    package static func connect(
        to address: SocketAddress, on loop: EventLoop, deadline: Deadline
    ) async throws(TransportError) -> SocketChannel {
        let result = await withCheckedContinuation { continuation in
            connect(to: address, on: loop, deadline: deadline) {
                continuation.resume(returning: $0)
            }
        }
        return try result.get()
    }

    private func finishConnect(
        deadline: Deadline,
        completion: @escaping @Sendable (Result<SocketChannel, TransportError>) -> Void
    ) {
        let attempt = ConnectAttempt()
        let timer = loop.schedule(at: deadline) { [self] in
            guard attempt.finish() else { return }
            close()
            completion(.failure(.connectTimedOut))
        }
        awaitWritable { [self] in
            timer.cancel()
            guard attempt.finish() else { return }
            let error = SocketOptions.pendingError(fd)
            if error == 0 {
                completion(.success(self))
            } else {
                close()
                completion(.failure(.connectFailed(errno: error)))
            }
        }
    }
}

/// Makes sure a connect completes once: either writability or the deadline wins.
///
/// `@unchecked Sendable` is sound: `finish()` is only called from the two handlers of
/// one connect, both scheduled on the same loop's serial queue, never concurrently.
private final class ConnectAttempt: @unchecked Sendable {
    private var done = false

    func finish() -> Bool {
        if done { return false }
        done = true
        return true
    }
}
