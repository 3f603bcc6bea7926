import COpenSSL

/// SHA-256 and HMAC-SHA-256 through OpenSSL, for the parts of the service outside the key
/// ring that need a digest (a legacy format's key, the sandbox's PKCE S256 and form
/// token), so that only `Sealing` and `TLS` reach OpenSSL (ARCHITECTURE.md).
package enum SHA256 {
    package static let byteCount = 32

    /// The digest of `bytes`, or nil if OpenSSL fails.
    package static func digest(_ bytes: [UInt8]) -> [UInt8]? {
        var ok = false
        let result = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            ok = bytes.withUnsafeBytes { input in
                Self.digest(input, into: UnsafeMutableRawBufferPointer(buffer))
            }
            initialized = ok ? byteCount : 0
        }
        return ok ? result : nil
    }

    /// Writes the digest of `input` into the first `byteCount` bytes of `output`; false
    /// (and `output` unspecified) if `output` is shorter or OpenSSL fails. On the
    /// thread's own reused EVP context (`tokenswap_sha256`), not one made per call: the
    /// state store digests a key on every refresh (CONTRACT §12).
    package static func digest(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard output.count >= byteCount,
            let digest = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return false }
        return tokenswap_sha256(input.baseAddress, input.count, digest) == 1
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
