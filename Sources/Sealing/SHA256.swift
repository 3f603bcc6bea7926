import COpenSSL

/// SHA-256 and HMAC-SHA-256 through OpenSSL, for the parts of the service outside the key
/// ring that need a digest (a legacy format's key, the sandbox's PKCE S256 and form
/// token), so that only `Sealing` and `TLS` reach OpenSSL (ARCHITECTURE.md).
package enum SHA256 {
    package static let byteCount = 32

    /// SHA-256 fetched from the provider once: on OpenSSL 3 `EVP_sha256()` is fetched again
    /// on every digest, a lock and a lookup each (a DPoP refresh digests several times).
    private struct Fetched: @unchecked Sendable {
        // Immutable after the fetch and never freed: OpenSSL's algorithm objects are
        // shared and reference-counted across threads.
        let algorithm: OpaquePointer?
    }
    private static let fetched = Fetched(algorithm: EVP_MD_fetch(nil, "SHA256", nil))

    /// The digest of `bytes`, or nil if OpenSSL fails.
    package static func digest(_ bytes: [UInt8]) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(
                input.baseAddress, input.count, &digest, &length,
                fetched.algorithm ?? EVP_sha256(), nil)
        }
        guard ok == 1, length == UInt32(byteCount) else { return nil }
        return Array(digest.prefix(byteCount))
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
