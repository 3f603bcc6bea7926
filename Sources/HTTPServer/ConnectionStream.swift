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
    /// Output waiting for the peer past which the connection is closed (CONTRACT §15).
    private let maxPendingOutputBytes: Int
    /// Where the ciphertext from the socket stands in its records: the bytes of an
    /// incomplete record wait inside the engine, held for this connection.
    private var framing = TLSRecordFraming()

    init(channel: SocketChannel, tls: TLSEngine?, maxPendingOutputBytes: Int = .max) {
        self.channel = channel
        self.tls = tls
        self.maxPendingOutputBytes = maxPendingOutputBytes
    }

    /// Ciphertext of an incomplete TLS record the engine holds (0 without TLS): input
    /// held for this connection beside its plaintext buffer (CONTRACT §15).
    var heldCiphertextBytes: Int { framing.partialRecordBytes }

    /// Appends what has arrived (decrypted on HTTPS) to `buffer`. `.wouldBlock` when the
    /// socket had only handshake or partial records: the read source fires again.
    ///
    /// On HTTPS the ciphertext is read into the loop's scratch buffer and the plaintext
    /// decrypted into its other half: the connection keeps only the plaintext bytes.
    func receive(into buffer: inout [UInt8]) -> ReceiveResult {
        guard let tls else { return channel.receive(into: &buffer) }
        var outcome = ReceiveResult.wouldBlock
        let read = channel.receive { [self] ciphertext, spare in
            framing.advance(over: ciphertext)
            tls.receiveCiphertext(ciphertext)
            outcome = process(tls, into: &buffer, scratch: spare)
        }
        // Every complete record was taken and every answer sent: the BIOs are empty and
        // their buffers can go (the connection keeps only plaintext).
        tls.releaseInputBuffer()
        tls.releaseOutputBuffer()
        guard case .received = read else { return read }
        // Closed for an output backlog while answering what arrived.
        if channel.isClosed { return .failed(errno: ECONNRESET) }
        return outcome
    }

    /// Runs the handshake while it is incomplete, then decrypts what it can.
    private func process(
        _ tls: TLSEngine, into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer
    ) -> ReceiveResult {
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
        let result = decrypt(tls, into: &buffer, scratch: scratch)
        // A TLS 1.3 KeyUpdate or session tickets may have queued records to send.
        flush()
        return result
    }

    /// Moves every decrypted byte into `buffer` through `scratch` (`TLSEngine.drainPlaintext`).
    private func decrypt(
        _ tls: TLSEngine, into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer
    ) -> ReceiveResult {
        let before = buffer.count
        let end: TLSEngine.DrainEnd
        do {
            end = try tls.drainPlaintext(into: &buffer, scratch: scratch)
        } catch {
            flush()
            return .failed(errno: EPROTO)
        }
        let total = buffer.count - before
        switch end {
        case .needsMoreInput:
            return total > 0 ? .received(total) : .wouldBlock
        case .closed:
            // close_notify (RFC 8446 §6.1): the client's end of the request stream.
            return total > 0 ? .received(total) : .endOfFile
        }
    }

    /// Sends `bytes` (encrypted on HTTPS) after anything already pending.
    func send(_ bytes: [UInt8], completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard !closedForBacklog() else { return completion(.failure(.channelClosed)) }
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

    /// Sends what the engine has queued (handshake records, alerts, tickets, KeyUpdate
    /// answers).
    private func flush() {
        guard let tls, tls.hasCiphertextToSend else { return }
        var records: [UInt8] = []
        tls.takeCiphertext(into: &records)
        channel.send(records) { _ in }
        _ = closedForBacklog()
    }

    /// Closes the connection when more output waits for the peer than
    /// `maxPendingOutputBytes` (CONTRACT §15): a client that makes the server answer
    /// (a TLS 1.3 KeyUpdate flood, RFC 8446 §4.6.3, queues one record per request) but
    /// never reads would otherwise grow the queue without end, in any phase.
    private func closedForBacklog() -> Bool {
        guard channel.pendingWriteBytes > maxPendingOutputBytes else { return false }
        channel.close()
        return true
    }
}
