import COpenSSL

/// The AES-256-GCM implementation fetched once from OpenSSL's default provider.
///
/// OpenSSL 3 re-fetches the algorithm on every `EVP_EncryptInit_ex2` when given the
/// legacy `EVP_aes_256_gcm()` object (a locked lookup per call); an explicitly fetched
/// `EVP_CIPHER` skips that.
///
/// `@unchecked Sendable` is sound: the pointer is set once in `init` and never changed;
/// a fetched `EVP_CIPHER` is immutable and reference counted, and OpenSSL documents
/// fetched algorithm objects as safe to use from many threads at once
/// (openssl-threads(7)). It is freed only in `deinit`, when nothing else refers to it.
final class GCMCipher: @unchecked Sendable {
    /// The process-wide instance; nil only if OpenSSL has no AES-256-GCM.
    static let shared: GCMCipher? = GCMCipher()

    let pointer: OpaquePointer

    private init?() {
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) else { return nil }
        pointer = cipher
    }

    deinit {
        EVP_CIPHER_free(pointer)
    }
}
