import COpenSSL

/// One TLS session, client or server side, as a pure transform over memory BIOs:
/// ciphertext from the socket goes in with `receiveCiphertext`, ciphertext for the socket
/// comes out of `takeCiphertext`, and plaintext passes through `writePlaintext` /
/// `readPlaintext`. The engine does no I/O, so the socket code is the same with and
/// without TLS, and the server and the client share it.
///
/// Not thread-safe: owned by one connection and used only on its event loop. OpenSSL's
/// error queue is per thread, so each call clears it first and reads it before
/// returning, inside one Dispatch block.
package final class TLSEngine {
    package enum HandshakeProgress {
        case complete
        /// Send `takeCiphertext()` and feed more socket bytes.
        case needsMoreInput
    }

    /// How the stream stands after `drainPlaintext`.
    package enum DrainEnd {
        /// Every complete record was decrypted; the next needs more socket bytes.
        case needsMoreInput
        /// The peer sent close_notify (RFC 8446 §6.1).
        case closed
    }

    private let ssl: OpaquePointer
    /// Replaced by `releaseInputBuffer` (a memory BIO never shrinks).
    private var inbound: OpaquePointer
    /// Replaced by `releaseOutputBuffer`, like `inbound`.
    private var outbound: OpaquePointer
    private var outboundHighWater = 0
    /// The most ciphertext the inbound BIO has held at once since it was made: its
    /// buffer's size, about.
    private var inboundHighWater = 0
    package private(set) var handshakeComplete = false
    /// The context this session was made from, kept alive as long as the session: a
    /// server context replaced by a reload stays with the connections that use it.
    private let context: AnyObject

    /// A client session to `serverName` (hostname check and SNI), resuming `session`.
    package convenience init(
        context: TLSClientContext, serverName: String, session: TLSSession? = nil
    ) throws(TLSFailure) {
        try self.init(pointer: context.pointer, owner: context)
        SSL_set_connect_state(ssl)
        try configurePeerIdentity(serverName)
        if let session { _ = SSL_set_session(ssl, session.pointer) }
    }

    /// A server session (the SSL_accept side) with `context`'s certificate and key.
    package convenience init(context: TLSServerContext) throws(TLSFailure) {
        try self.init(pointer: context.pointer, owner: context)
        SSL_set_accept_state(ssl)
    }

    private init(pointer: OpaquePointer, owner: AnyObject) throws(TLSFailure) {
        ERR_clear_error()
        guard let ssl = SSL_new(pointer) else {
            throw .configuration(reason: TLSErrorQueue.drain("SSL_new failed"))
        }
        guard let inbound = Self.makeInboundBIO(), let outbound = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .configuration(reason: TLSErrorQueue.drain("BIO_new failed"))
        }
        SSL_set_bio(ssl, inbound, outbound)  // the SSL owns both BIOs from here
        self.ssl = ssl
        self.inbound = inbound
        self.outbound = outbound
        self.context = owner
    }

    deinit {
        SSL_free(ssl)
    }

    /// Hostname check and SNI. An IP literal is checked against the certificate's IP
    /// SANs and sent without SNI (RFC 6066 §3 forbids literal addresses there).
    private func configurePeerIdentity(_ serverName: String) throws(TLSFailure) {
        if Self.isIPLiteral(serverName) {
            guard let param = SSL_get0_param(ssl),
                X509_VERIFY_PARAM_set1_ip_asc(param, serverName) == 1
            else { throw .configuration(reason: TLSErrorQueue.drain("bad IP literal")) }
            return
        }
        SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
        guard SSL_set1_host(ssl, serverName) == 1 else {
            throw .configuration(reason: TLSErrorQueue.drain("SSL_set1_host failed"))
        }
        guard tokenswap_SSL_set_tlsext_host_name(ssl, serverName) == 1 else {
            throw .configuration(reason: TLSErrorQueue.drain("SNI rejected"))
        }
    }

    package static func isIPLiteral(_ host: String) -> Bool {
        host.contains(":") || host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
    }

    /// A memory BIO for ciphertext from the socket. Empty means "no bytes yet", not end
    /// of stream: the socket code reports EOF itself.
    private static func makeInboundBIO() -> OpaquePointer? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        _ = tokenswap_BIO_set_mem_eof_return(bio, -1)
        return bio
    }

    package func receiveCiphertext(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        // A memory BIO grows to take everything; it fails only on allocation failure.
        _ = BIO_write(inbound, base, Int32(clamping: bytes.count))
        inboundHighWater = max(inboundHighWater, Int(BIO_ctrl_pending(inbound)))
    }

    /// Frees the inbound BIO's buffer when it is empty and has grown past `keptBytes`
    /// (a memory BIO keeps the largest size it ever had): a connection waiting for its
    /// next request then holds no ciphertext buffer of its own. Bytes of an incomplete
    /// record are in OpenSSL's record buffer, not in the BIO, so nothing is lost.
    package func releaseInputBuffer(keptBytes: Int = 1024) {
        guard inboundHighWater > keptBytes, BIO_ctrl_pending(inbound) == 0,
            let fresh = Self.makeInboundBIO()
        else { return }
        SSL_set0_rbio(ssl, fresh)  // frees the old BIO
        inbound = fresh
        inboundHighWater = 0
    }

    /// Ciphertext waiting to be sent, appended to `buffer`.
    package func takeCiphertext(into buffer: inout [UInt8]) {
        let pending = Int(BIO_ctrl_pending(outbound))
        guard pending > 0 else { return }
        outboundHighWater = max(outboundHighWater, pending)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: pending))
        let read = buffer.withUnsafeMutableBytes { raw in
            BIO_read(outbound, raw.baseAddress.map { $0 + start }, Int32(clamping: pending))
        }
        buffer.removeLast(pending - max(0, Int(read)))
    }

    /// Frees the outbound BIO's buffer when everything was taken and it has grown past
    /// `keptBytes` (the handshake's flight, a large response): see `releaseInputBuffer`.
    package func releaseOutputBuffer(keptBytes: Int = 1024) {
        guard outboundHighWater > keptBytes, BIO_ctrl_pending(outbound) == 0,
            let fresh = BIO_new(BIO_s_mem())
        else { return }
        SSL_set0_wbio(ssl, fresh)  // frees the old BIO
        outbound = fresh
        outboundHighWater = 0
    }

    package var hasCiphertextToSend: Bool { BIO_ctrl_pending(outbound) > 0 }

    package func handshake() throws(TLSFailure) -> HandshakeProgress {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            handshakeComplete = true
            return .complete
        }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ { return .needsMoreInput }
        throw handshakeFailure()
    }

    /// Why the handshake failed: the verify result first (it names the certificate
    /// problem), then the error queue.
    private func handshakeFailure() -> TLSFailure {
        let verify = SSL_get_verify_result(ssl)
        let codes = TLSErrorQueue.codes()
        if verify != Int(X509_V_OK) {
            if verify == Int(X509_V_ERR_HOSTNAME_MISMATCH)
                || verify == Int(X509_V_ERR_IP_ADDRESS_MISMATCH)
            {
                return .hostnameMismatch
            }
            let text =
                X509_verify_cert_error_string(verify).map { String(cString: $0) }
                ?? "code \(verify)"
            return .certificateVerifyFailed(reason: text)
        }
        let reasons = codes.map(TLSErrorQueue.text).joined(separator: "; ")
        if codes.contains(where: { tokenswap_ERR_is_protocol_version($0) != 0 }) {
            return .protocolVersion(reason: reasons)
        }
        if codes.contains(where: { tokenswap_ERR_is_certificate_verify_failed($0) != 0 }) {
            return .certificateVerifyFailed(reason: reasons)
        }
        return .handshake(reason: reasons.isEmpty ? "peer closed the connection" : reasons)
    }

    /// Encrypts all of `bytes`; the ciphertext is then in `takeCiphertext`.
    package func writePlaintext(_ bytes: UnsafeRawBufferPointer) throws(TLSRecordError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let chunk = Int32(clamping: bytes.count - offset)
            let written = SSL_write(ssl, bytes.baseAddress.map { $0 + offset }, chunk)
            guard written > 0 else {
                throw TLSRecordError(reason: TLSErrorQueue.drain("TLS write failed"))
            }
            offset += Int(written)
        }
    }

    /// Decrypts every complete record that has arrived and appends its plaintext to
    /// `buffer`, one read at a time through `scratch` (16 KiB holds any record, RFC 8446
    /// §5.1): the one drain the server and the client both use. On a thrown error the
    /// plaintext of the records before it is already in `buffer`.
    package func drainPlaintext(
        into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer
    ) throws(TLSRecordError) -> DrainEnd {
        while true {
            ERR_clear_error()
            let read = SSL_read(ssl, scratch.baseAddress, Int32(clamping: scratch.count))
            if read > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<Int(read)]))
                continue
            }
            switch SSL_get_error(ssl, read) {
            case SSL_ERROR_WANT_READ: return .needsMoreInput
            case SSL_ERROR_ZERO_RETURN: return .closed
            default: throw TLSRecordError(reason: TLSErrorQueue.drain("TLS read failed"))
            }
        }
    }

    /// What a client connection does with the bytes it read: hands `ciphertext` to the
    /// engine (leaving it empty) and, once the handshake is complete, drains the plaintext
    /// into `plaintext` through `scratch` (made, 16 KiB, on first use). Nil while the
    /// handshake runs (the caller's handshake step reads the records).
    package func absorb(
        _ ciphertext: inout [UInt8], into plaintext: inout [UInt8], scratch: inout [UInt8]
    ) throws(TLSRecordError) -> DrainEnd? {
        if !ciphertext.isEmpty {
            ciphertext.withUnsafeBytes { receiveCiphertext($0) }
            ciphertext.removeAll(keepingCapacity: true)
        }
        guard handshakeComplete else { return nil }
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: 16 * 1024) }
        let drained = scratch.withUnsafeMutableBytes { raw in
            Result { () throws(TLSRecordError) in try drainPlaintext(into: &plaintext, scratch: raw)
            }
        }
        return try drained.get()
    }

    /// The session to resume on the next connection to this origin, when the server
    /// issued one (TLS 1.3 tickets arrive after the handshake, so ask after a read).
    package func resumableSession() -> TLSSession? {
        guard let session = SSL_get1_session(ssl) else { return nil }
        guard SSL_SESSION_is_resumable(session) == 1 else {
            SSL_SESSION_free(session)
            return nil
        }
        return TLSSession(owning: session)
    }

    package var sessionWasReused: Bool { SSL_session_reused(ssl) == 1 }

    /// The peer's close_notify has arrived (RFC 8446 §6.1). Without it, a TCP end of file
    /// may be an attacker (or a middlebox) cutting the stream short.
    package var receivedCloseNotify: Bool { SSL_get_shutdown(ssl) & SSL_RECEIVED_SHUTDOWN != 0 }

    /// Queues a TLS 1.3 KeyUpdate that asks the peer to update its keys too (RFC 8446
    /// §4.6.3); the caller sends `takeCiphertext`. False when the session cannot (TLS
    /// 1.2, or the handshake is not complete).
    package func requestKeyUpdate() -> Bool {
        ERR_clear_error()
        guard SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) == 1 else {
            ERR_clear_error()
            return false
        }
        // The message is written by the next handshake step or write.
        let written = SSL_do_handshake(ssl) == 1
        ERR_clear_error()
        return written
    }

    /// Queues close_notify (RFC 8446 §6.1); the caller sends `takeCiphertext` if it can.
    package func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }
}
