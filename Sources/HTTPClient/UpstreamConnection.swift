import HTTPCore
import TLS
import Transport

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Reads at most this many times per readable event, so one flooding server cannot
    /// hold the loop; the level-triggered read source fires again for the rest.
    private static let receivesPerEvent = 8
    private static let receiveBytes = 64 * 1024

    func readAvailable() -> Intake {
        var socket = Intake.open
        var receives = 0
        reading: while receives < Self.receivesPerEvent {
            receives += 1
            let result =
                tls == nil
                ? channel.receive(into: &plaintext, maxBytes: Self.receiveBytes)
                : channel.receive(into: &ciphertext, maxBytes: Self.receiveBytes)
            switch result {
            // A short read drained the socket: skip the recv that would only say EAGAIN.
            case .received(let count) where count < Self.receiveBytes: break reading
            case .received: continue
            case .wouldBlock: break reading
            case .endOfFile:
                socket = .endOfStream
                break reading
            case .failed(let code):
                socket = .failed(Self.errnoName(code))
                break reading
            }
        }
        guard let tls else { return socket }
        if !ciphertext.isEmpty {
            ciphertext.withUnsafeBytes { tls.receiveCiphertext($0) }
            ciphertext.removeAll(keepingCapacity: true)
        }
        guard tls.handshakeComplete else { return socket }
        let decrypted = decrypt(tls)
        if case .open = decrypted { return socket }
        return decrypted
    }

    /// Moves every decrypted byte into `plaintext` (`TLSEngine.drainPlaintext`).
    private func decrypt(_ tls: TLSEngine) -> Intake {
        if decryptScratch.isEmpty { decryptScratch = [UInt8](repeating: 0, count: 16 * 1024) }
        let end: TLSEngine.DrainEnd
        do {
            end = try decryptScratch.withUnsafeMutableBytes { raw throws(TLSRecordError) in
                try tls.drainPlaintext(into: &plaintext, scratch: raw)
            }
        } catch {
            return .failed("\(error)")
        }
        switch end {
        case .needsMoreInput: return .open
        case .closed: return .endOfStream
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

    static func errnoName(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
