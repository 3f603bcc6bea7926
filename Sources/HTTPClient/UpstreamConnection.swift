import ClientStream
import HTTPCore
import TLS
import Transport

/// One HTTP/1.1 connection to an origin, plain or TLS, owned by one event loop. It
/// carries one exchange at a time (no pipelining); between exchanges it sits idle in
/// its pool with reading on, so a server closing it is noticed and it is retired.
///
/// `@unchecked Sendable` is sound: every mutable property is read and written only on
/// `channel.loop`'s serial queue — the async entry points hop there with
/// `loop.execute`, and the channel's handlers and timers run there — so no two threads
/// touch the state at once. Sendable only so those `@Sendable` closures can capture it.
final class UpstreamConnection: @unchecked Sendable {
    enum State {
        case handshaking
        case idle
        case exchanging
        case closed
    }

    /// The socket and, for https, the TLS session: reading, writing, the handshake.
    let stream: ClientStream
    var channel: SocketChannel { stream.channel }
    let limits: HTTPLimits
    var loop: EventLoop { channel.loop }

    var state: State
    /// Requests answered on this connection so far; above 0 it is a reused connection.
    var completedExchanges = 0
    /// Whether the server may have closed this idle, reused connection without the loop
    /// having handed the close over yet (`SocketChannel.mayHoldUnseenClose`). Then
    /// `exchange` looks before writing.
    var mayHaveUnseenClose: Bool {
        completedExchanges > 0 && channel.mayHoldUnseenClose
    }
    let deadline: ConnectionDeadline

    /// The exchange in progress.
    var reader: ResponseReader?
    var exchangeCompletion: ((Result<Answer, ExchangeFailure>) -> Void)?
    let idleTimeoutSeconds: Double
    /// Called once, on the loop, when the connection closes for any reason, so its pool
    /// stops counting it (the pool's side is idempotent).
    private var onClose: ((UpstreamConnection) -> Void)?

    /// Takes over a connected channel and starts watching it. Call on the channel's loop.
    init(
        channel: SocketChannel, tls: TLSEngine?, limits: HTTPLimits, idleTimeoutSeconds: Double,
        onClose: @escaping (UpstreamConnection) -> Void
    ) {
        self.stream = ClientStream(channel: channel, tls: tls)
        self.limits = limits
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.onClose = onClose
        self.state = tls == nil ? .idle : .handshaking
        self.deadline = ConnectionDeadline(loop: channel.loop)
        channel.setReadHandler { [self] in onReadable() }
        channel.resumeReading()
    }

    /// Runs the TLS handshake to completion or failure by `handshakeDeadline`.
    /// Call on the loop; `completion` runs once, on the loop.
    func startHandshake(
        deadline handshakeDeadline: Deadline,
        completion: @escaping (Result<Void, HTTPClientError>) -> Void
    ) {
        stream.handshake(by: handshakeDeadline) { [self] result in
            switch result {
            case .success: state = .idle
            case .failure: close()
            }
            completion(result.mapError { HTTPClientError(handshake: $0) })
        }
    }

    /// Closes the socket (after a best-effort close_notify). Idempotent.
    func close() {
        guard state != .closed else { return }
        state = .closed
        deadline.cancel()
        stream.close()
        let notify = onClose
        onClose = nil
        notify?(self)
    }
}
