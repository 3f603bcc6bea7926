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

    let channel: SocketChannel
    let tls: TLSEngine?
    let limits: HTTPLimits
    var loop: EventLoop { channel.loop }

    var state: State
    /// Socket bytes not yet given to the TLS engine.
    var ciphertext: [UInt8] = []
    /// HTTP bytes not yet consumed by the response reader.
    var plaintext: [UInt8] = []
    /// Where TLS records are decrypted (one TLS record at most, 16 KiB, RFC 8446 §5.1);
    /// allocated on first use, so plain connections carry none.
    private var decryptScratch: [UInt8] = []
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
    var handshakeCompletion: ((Result<Void, HTTPClientError>) -> Void)?
    let idleTimeoutSeconds: Double
    /// Called once, on the loop, when the connection closes for any reason, so its pool
    /// stops counting it (the pool's side is idempotent).
    private var onClose: ((UpstreamConnection) -> Void)?

    /// Takes over a connected channel and starts watching it. Call on the channel's loop.
    init(
        channel: SocketChannel, tls: TLSEngine?, limits: HTTPLimits, idleTimeoutSeconds: Double,
        onClose: @escaping (UpstreamConnection) -> Void
    ) {
        self.channel = channel
        self.tls = tls
        self.limits = limits
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.onClose = onClose
        self.state = tls == nil ? .idle : .handshaking
        self.deadline = ConnectionDeadline(loop: channel.loop)
        channel.setReadHandler { [self] in onReadable() }
        channel.resumeReading()
    }

    /// Reads everything the socket has now into `plaintext` (through TLS when on).
    /// Returns how the stream stands after the read.
    enum Intake {
        case open
        case endOfStream
        case failed(String)
    }

    /// Reads at most this many times per readable event (`SocketChannel.receiveAvailable`).
    private static let receivesPerEvent = 8
    private static let receiveBytes = 64 * 1024

    func readAvailable() -> Intake {
        let received: ReceiveEnd
        if tls == nil {
            received = channel.receiveAvailable(
                into: &plaintext, maxBytes: Self.receiveBytes, reads: Self.receivesPerEvent)
        } else {
            received = channel.receiveAvailable(
                into: &ciphertext, maxBytes: Self.receiveBytes, reads: Self.receivesPerEvent)
        }
        let socket: Intake
        switch received {
        case .open: socket = .open
        case .endOfFile: socket = .endOfStream
        case .failed(let code): socket = .failed(TransportError.text(code))
        }
        guard let tls else { return socket }
        // Every decrypted byte into `plaintext` (`TLSEngine.drainPlaintext`).
        do throws(TLSRecordError) {
            switch try tls.absorb(&ciphertext, into: &plaintext, scratch: &decryptScratch) {
            case nil, .needsMoreInput?: return socket
            case .closed?: return .endOfStream
            }
        } catch {
            return .failed("\(error)")
        }
    }

    /// Sends what the TLS engine has queued (handshake records, alerts, ciphertext).
    func flushTLS(completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard let tls, tls.hasCiphertextToSend else { return completion(.success(())) }
        var out: [UInt8] = []
        tls.takeCiphertext(into: &out)
        channel.send(out, completion: completion)
    }

    /// Closes the socket (after a best-effort close_notify). Idempotent.
    func close() {
        guard state != .closed else { return }
        state = .closed
        deadline.cancel()
        if let tls, tls.handshakeComplete {
            tls.close()
            flushTLS { _ in }
        }
        channel.close()
        let notify = onClose
        onClose = nil
        notify?(self)
    }
}
