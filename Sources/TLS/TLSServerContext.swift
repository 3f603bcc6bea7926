import COpenSSL

/// One certificate chain and private key, loaded and checked, as a server `SSL_CTX`
/// (CONTRACT §10): TLS 1.2 and 1.3 only (RFC 8996), ECDHE+AEAD suites, no renegotiation
/// or compression, ALPN `http/1.1` (RFC 7301). A reload builds a new context; sessions
/// made from the old one keep it alive (`TLSEngine` holds its context).
///
/// `@unchecked Sendable`: the context is configured completely in `init` and never
/// changed afterwards; OpenSSL documents a configured `SSL_CTX` as safe to share
/// between threads for `SSL_new` (reference counts and the session cache are locked
/// internally). Every stored property is a `let`.
package final class TLSServerContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The leaf certificate's notAfter, seconds since the epoch.
    package let notAfterSeconds: Int64

    /// Loads `certificateChainFile` (PEM, leaf first) and `keyFile` (PEM) and checks that
    /// the key belongs to the leaf. Errors name the file and OpenSSL's check, never key
    /// bytes.
    package init(certificateChainFile: String, keyFile: String) throws(TLSFailure) {
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            throw .configuration(reason: TLSErrorQueue.drain("SSL_CTX_new failed"))
        }
        do {
            notAfterSeconds = try Self.load(
                into: ctx, certificateChainFile: certificateChainFile, keyFile: keyFile)
        } catch {
            SSL_CTX_free(ctx)
            throw error
        }
        pointer = ctx
    }

    /// Configures `ctx` and loads the pair; returns the leaf's notAfter.
    private static func load(
        into ctx: OpaquePointer, certificateChainFile: String, keyFile: String
    ) throws(TLSFailure) -> Int64 {
        guard tokenswap_SSL_CTX_configure_server(ctx) == 1 else {
            throw .configuration(reason: TLSErrorQueue.drain("cannot configure TLS"))
        }
        guard SSL_CTX_use_certificate_chain_file(ctx, certificateChainFile) == 1 else {
            throw .configuration(
                reason: TLSErrorQueue.drain(
                    "cannot load the certificate chain \(certificateChainFile)"))
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, keyFile, SSL_FILETYPE_PEM) == 1 else {
            // The reason names the file and the parse step; OpenSSL never prints the key.
            throw .configuration(
                reason: TLSErrorQueue.drain("cannot load the private key \(keyFile)"))
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw .configuration(
                reason: TLSErrorQueue.drain(
                    "the private key \(keyFile) does not match the certificate "
                        + certificateChainFile))
        }
        guard let leaf = SSL_CTX_get0_certificate(ctx) else {
            throw .configuration(reason: "no certificate in \(certificateChainFile)")
        }
        let notAfter = tokenswap_X509_not_after(leaf)
        guard notAfter >= 0 else {
            throw .configuration(reason: "unreadable notAfter in \(certificateChainFile)")
        }
        return Int64(notAfter)
    }

    deinit {
        SSL_CTX_free(pointer)
    }
}
