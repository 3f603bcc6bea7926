import TLS
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a connection reads and writes: the socket's own, or, on an HTTPS listener,
/// the plaintext of a TLS session over it (CONTRACT §10). TLS is a transform between
/// socket bytes and HTTP bytes, so the connection's logic is the same either way.
///
/// The TLS handshake runs inside `receive`: until it completes no plaintext arrives, so
/// the connection is still waiting for its first request head and the header deadline,
/// which runs from accept, bounds the handshake too (a client that connects and sends
/// nothing, or stalls mid-handshake, is closed at it).
///
/// Not thread-safe: owned by one connection and used only on its channel's loop.
final class ConnectionStream {
    let channel: SocketChannel
    private let tls: TLSEngine?
    /// Ciphertext read from the socket and not yet given to the engine (emptied on each
    /// read, capacity and all, so an idle connection holds no buffer).
    private var ciphertext: [UInt8] = []
    /// How much plaintext one `SSL_read` may produce (one TLS record's maximum).
    private static let recordBytes = 16 * 1024

    init(channel: SocketChannel, tls: TLSEngine?) {
        self.channel = channel
        self.tls = tls
    }

    /// Appends what has arrived (decrypted on HTTPS) to `buffer`. `.wouldBlock` when the
    /// socket had only handshake or partial records: the read source fires again.
    func receive(into buffer: inout [UInt8]) -> ReceiveResult {
        guard let tls else { return channel.receive(into: &buffer) }
        switch channel.receive(into: &ciphertext) {
        case .received: break
        case let other: return other
        }
        ciphertext.withUnsafeBytes { tls.receiveCiphertext($0) }
        ciphertext = []
        if !tls.handshakeComplete {
            let progress: TLSEngine.HandshakeProgress
            do {
                progress = try tls.handshake()
            } catch {
                // The alert (protocol_version, handshake_failure, …) tells the client why.
                flush()
                return .failed(errno: EPROTO)
            }
            flush()
            guard case .complete = progress else { return .wouldBlock }
        }
        let result = decrypt(tls, into: &buffer)
        // A TLS 1.3 KeyUpdate or session tickets may have queued records to send.
        flush()
        return result
    }

    /// Moves every decrypted byte into `buffer`.
    private func decrypt(_ tls: TLSEngine, into buffer: inout [UInt8]) -> ReceiveResult {
        var total = 0
        while true {
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: Self.recordBytes))
            let progress: TLSEngine.ReadProgress
            do {
                progress = try buffer.withUnsafeMutableBytes { raw throws(TLSRecordError) in
                    try tls.readPlaintext(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
                }
            } catch {
                buffer.removeLast(Self.recordBytes)
                flush()
                return .failed(errno: EPROTO)
            }
            switch progress {
            case .bytes(let count):
                buffer.removeLast(Self.recordBytes - count)
                total += count
            case .needsMoreInput:
                buffer.removeLast(Self.recordBytes)
                return total > 0 ? .received(total) : .wouldBlock
            case .closed:
                // close_notify (RFC 8446 §6.1): the client's end of the request stream.
                buffer.removeLast(Self.recordBytes)
                return total > 0 ? .received(total) : .endOfFile
            }
        }
    }

    /// Sends `bytes` (encrypted on HTTPS) after anything already pending.
    func send(_ bytes: [UInt8], completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard let tls else { return channel.send(bytes, completion: completion) }
        do {
            try bytes.withUnsafeBytes { try tls.writePlaintext($0) }
        } catch {
            return completion(.failure(.channelClosed))
        }
        var records: [UInt8] = []
        tls.takeCiphertext(into: &records)
        channel.send(records, completion: completion)
    }

    /// Ends the write side: close_notify first on HTTPS (RFC 8446 §6.1, so the client can
    /// tell the response's end from a truncation), then FIN.
    func shutdownWrite() {
        if let tls, tls.handshakeComplete {
            tls.close()
            flush()
        }
        channel.shutdownWrite()
    }

    /// Sends what the engine has queued (handshake records, alerts, tickets).
    private func flush() {
        guard let tls, tls.hasCiphertextToSend else { return }
        var records: [UInt8] = []
        tls.takeCiphertext(into: &records)
        channel.send(records) { _ in }
    }
}
