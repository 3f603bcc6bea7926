import COpenSSL

/// Random bytes from OpenSSL's DRBG (seeded from the kernel, reseeded by OpenSSL): the
/// one source for nonces, keys and request ids. Unlike `SystemRandomNumberGenerator`,
/// which makes a `getrandom` system call for every value on Linux, it costs no system
/// call per use, which matters for an id minted on every request.
public enum SecureRandom {
    /// Fills `buffer`; false when OpenSSL could not (its DRBG failed to seed).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        return RAND_bytes(base, Int32(buffer.count)) == 1
    }

    /// Two random 64-bit words; nil when OpenSSL could not supply them.
    public static func words() -> (UInt64, UInt64)? {
        var words: (UInt64, UInt64) = (0, 0)
        let filled = withUnsafeMutableBytes(of: &words) { fill($0) }
        return filled ? words : nil
    }
}
