import COpenSSL

/// SHA-256 and HMAC-SHA-256 through OpenSSL, for the parts of the service outside the key
/// ring that need a digest (a legacy format's key, the sandbox's PKCE S256 and form
/// token), so that only `Sealing` and `TLS` reach OpenSSL (ARCHITECTURE.md).
package enum SHA256 {
    package static let byteCount = 32

    /// The digest of `bytes`, or nil if OpenSSL fails. With the algorithm fetched once
    /// (`FetchedSHA256`): the state store digests a key on every refresh (CONTRACT §12).
    package static func digest(_ bytes: [UInt8]) -> [UInt8]? {
        guard let algorithm = FetchedSHA256.shared?.pointer else { return nil }
        var length: UInt32 = 0
        var ok: Int32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: Int(EVP_MAX_MD_SIZE)) {
            buffer, initialized in
            ok = bytes.withUnsafeBytes { input in
                EVP_Digest(
                    input.baseAddress, input.count, buffer.baseAddress, &length, algorithm, nil)
            }
            initialized = ok == 1 ? min(Int(length), buffer.count) : 0
        }
        guard ok == 1, length == UInt32(byteCount) else { return nil }
        return digest
    }

    /// RFC 2104 over SHA-256 (block 64 bytes); nil for a key longer than the block (the
    /// callers' keys are 32 bytes) or if OpenSSL fails.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        guard key.count <= 64 else { return nil }
        let block = key + [UInt8](repeating: 0, count: 64 - key.count)
        guard let inner = digest(block.map { $0 ^ 0x36 } + message) else { return nil }
        return digest(block.map { $0 ^ 0x5C } + inner)
    }
}

/// SHA-256 fetched once from OpenSSL's default provider: given the legacy `EVP_sha256()`
/// object, OpenSSL 3 fetches the algorithm again on every `EVP_Digest` (a locked lookup
/// by name), which cost more than the digest of a refresh token itself.
///
/// `@unchecked Sendable` is sound for the reason `GCMCipher` gives: the pointer is set once
/// in `init`, a fetched `EVP_MD` is immutable and reference counted, OpenSSL documents
/// fetched algorithm objects as safe to share between threads (openssl-threads(7)), and it
/// is freed only in `deinit`.
final class FetchedSHA256: @unchecked Sendable {
    /// The process-wide instance; nil only if OpenSSL has no SHA-256.
    static let shared: FetchedSHA256? = FetchedSHA256()

    let pointer: OpaquePointer

    private init?() {
        guard let algorithm = EVP_MD_fetch(nil, "SHA256", nil) else { return nil }
        pointer = algorithm
    }

    deinit {
        EVP_MD_free(pointer)
    }
}
