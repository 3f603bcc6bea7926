import COpenSSL

/// The client's one `SSL_CTX`, built once: peer verification always on against the
/// system trust store plus an optional extra CA bundle, TLS 1.2 minimum (RFC 8996
/// deprecates 1.0 and 1.1), client-side session caching.
///
/// `@unchecked Sendable`: the context is configured completely in `init` and never
/// changed afterwards; OpenSSL documents a configured `SSL_CTX` as safe to share
/// between threads for `SSL_new` (its reference counts and session cache are locked
/// internally). `pointer` is a `let`.
package final class TLSClientContext: @unchecked Sendable {
    let pointer: OpaquePointer

    package init(extraCAFilePath: String?) throws(TLSFailure) {
        ERR_clear_error()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw .configuration(reason: TLSErrorQueue.drain("SSL_CTX_new failed"))
        }
        pointer = ctx
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        guard tokenswap_SSL_CTX_set_min_proto_version(ctx, tokenswap_TLS1_2_VERSION()) == 1 else {
            throw .configuration(reason: TLSErrorQueue.drain("cannot set TLS 1.2 minimum"))
        }
        guard SSL_CTX_set_default_verify_paths(ctx) == 1 else {
            throw .configuration(reason: TLSErrorQueue.drain("cannot load the system trust store"))
        }
        if let path = extraCAFilePath {
            guard SSL_CTX_load_verify_locations(ctx, path, nil) == 1 else {
                throw .configuration(reason: TLSErrorQueue.drain("cannot load the extra CA file"))
            }
        }
        _ = tokenswap_SSL_CTX_set_mode(ctx, tokenswap_SSL_MODE_client_defaults())
        // Client sessions are kept per origin by the pool (SSL_get1_session), one each.
        // OpenSSL's internal cache would keep every one of them too (up to 20,480) and a
        // client never looks a session up there by itself: NO_INTERNAL_STORE keeps it
        // empty (`internalCacheSessionCount` stays 0).
        _ = tokenswap_SSL_CTX_set_session_cache_mode(
            ctx,
            tokenswap_SSL_SESS_CACHE_CLIENT() | tokenswap_SSL_SESS_CACHE_NO_INTERNAL_STORE())
    }

    /// Sessions OpenSSL's internal cache holds (0: the pool's own store is the only one).
    package var internalCacheSessionCount: Int { tokenswap_SSL_CTX_sess_number(pointer) }

    deinit {
        SSL_CTX_free(pointer)
    }
}
