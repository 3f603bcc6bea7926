import COpenSSL

/// A resumable TLS session (RFC 8446 §2.2) kept by a pool for its origin.
///
/// `@unchecked Sendable`: the wrapped `SSL_SESSION` is never mutated after it is
/// obtained; OpenSSL reference-counts sessions with locking, and `SSL_set_session` only
/// reads it (taking its own reference), so sharing it between loops is safe.
package final class TLSSession: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        SSL_SESSION_free(pointer)
    }
}
