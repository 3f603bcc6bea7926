import TLS
import Transport

/// The byte stream of one client connection: a connected `SocketChannel` and, for TLS, a
/// client `TLSEngine` between the socket and the protocol. The upstream HTTP client and
/// the store's RESP client each own one per connection and keep only their protocol
/// (framing, deadlines of their own, errors); the handshake, reading (decrypting) into
/// `plaintext`, writing (encrypting) and the close with close_notify are here once.
///
/// `@unchecked Sendable` is sound: every mutable property is read and written only on
/// `channel.loop`'s thread — the owning connection calls in on the loop, and the
/// handshake's timer runs there — so no two threads touch the state at once. Sendable
/// only so the `@Sendable` timer closure can capture it.
package final class ClientStream: @unchecked Sendable {
    package let channel: SocketChannel
    package let tls: TLSEngine?
    package var loop: EventLoop { channel.loop }

    /// Protocol bytes read and not yet consumed by the owner's parser.
    package var plaintext: [UInt8] = []
    /// Socket bytes not yet given to the TLS engine.
    private var ciphertext: [UInt8] = []
    /// Where TLS records are decrypted (one TLS record at most, 16 KiB, RFC 8446 §5.1);
    /// allocated on first use, so plain connections carry none.
    private var decryptScratch: [UInt8] = []

    /// The handshake in progress (`ClientStream+Handshake.swift`).
    var handshakeCompletion: ((Result<Void, HandshakeFailure>) -> Void)?
    var handshakeTimer: LoopTimer?

    /// Takes over a connected channel; `tls`, when given, is a client session whose
    /// handshake the owner runs with `handshake(by:completion:)` before anything else.
    /// The owner installs the channel's read handler and routes its events.
    package init(channel: SocketChannel, tls: TLSEngine?) {
        self.channel = channel
        self.tls = tls
    }

    /// How the stream stands after a read.
    package enum Intake {
        case open
        case endOfStream
        case failed(String)
    }

    /// Reads at most this many times per readable event (`SocketChannel.receiveAvailable`).
    private static let receivesPerEvent = 8
    private static let receiveBytes = 64 * 1024

    /// Reads everything the socket has now into `plaintext` (through TLS when on).
    package func readAvailable() -> Intake {
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
            return .failed(error.reason)
        }
    }

    /// Reads what reached the stream while it sat idle between requests: true when it is
    /// still open and nothing arrived. An idle request-response connection receives
    /// nothing: an end of stream or a reset means the server closed it (RFC 9112 §9.6),
    /// and stray bytes leave no known reply boundary. (TLS 1.3 session tickets are
    /// consumed by the engine and yield no plaintext.)
    package func stayedIdle() -> Bool {
        guard case .open = readAvailable() else { return false }
        return plaintext.isEmpty
    }

    /// Sends `bytes`, encrypted when TLS is on. `completion` is `SocketChannel.send`'s.
    /// Throws, before anything is sent and without calling `completion`, when the engine
    /// cannot encrypt.
    package func write(
        _ bytes: [UInt8], completion: @escaping (Result<Void, TransportError>) -> Void
    ) throws(TLSRecordError) {
        guard let tls else { return channel.send(bytes, completion: completion) }
        let encrypted = bytes.withUnsafeBytes { raw in
            Result { () throws(TLSRecordError) in try tls.writePlaintext(raw) }
        }
        try encrypted.get()
        flushTLS(completion: completion)
    }

    /// Sends what the TLS engine has queued (handshake records, alerts, ciphertext).
    func flushTLS(completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard let tls, tls.hasCiphertextToSend else { return completion(.success(())) }
        var out: [UInt8] = []
        tls.takeCiphertext(into: &out)
        channel.send(out, completion: completion)
    }

    /// Closes the socket, after a best-effort close_notify (RFC 8446 §6.1) once the
    /// handshake is complete. A handshake in progress ends without its completion.
    /// Idempotent.
    package func close() {
        guard !channel.isClosed else { return }
        handshakeTimer?.cancel()
        handshakeTimer = nil
        handshakeCompletion = nil
        if let tls, tls.handshakeComplete {
            tls.close()
            flushTLS { _ in }
        }
        channel.close()
    }
}
