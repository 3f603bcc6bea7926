import COpenSSL
import Synchronization

/// Random bytes from OpenSSL's DRBG (seeded from the kernel, reseeded by OpenSSL): the
/// one source for nonces, keys and request ids. Unlike `SystemRandomNumberGenerator`,
/// which makes a `getrandom` system call for every value on Linux, it costs no system
/// call per use.
public enum SecureRandom {
    /// Fills `buffer`; false when OpenSSL could not (its DRBG failed to seed).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        return RAND_bytes(base, Int32(buffer.count)) == 1
    }

    /// Two random 64-bit words, for values made on every request (request ids): taken
    /// from a 4 KiB batch drawn at once, since each `RAND_bytes` call has a fixed cost
    /// (OpenSSL 3 looks up its DRBG's parameters by name on every call). nil when OpenSSL
    /// could not supply them.
    public static func words() -> (UInt64, UInt64)? {
        batch.withLock { $0.next() }
    }

    /// Fills `nonce` (at most 16 bytes: a GCM nonce is 12) from the same batch as
    /// `words`: a sealed token on every refresh, and a kept answer beside it (CONTRACT
    /// §12), would otherwise pay `RAND_bytes`'s fixed cost each. False when OpenSSL could
    /// not supply the bytes.
    public static func fillNonce(_ nonce: UnsafeMutableRawBufferPointer) -> Bool {
        guard nonce.count <= 16 else { return fill(nonce) }
        guard let (first, second) = words() else { return false }
        withUnsafeBytes(of: (first, second)) { words in
            nonce.copyMemory(from: UnsafeRawBufferPointer(rebasing: words[..<nonce.count]))
        }
        return true
    }

    private static let batch = Mutex(Batch())

    private struct Batch: ~Copyable {
        static let wordCount = 512
        let words = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: wordCount)
        var used = wordCount

        mutating func next() -> (UInt64, UInt64)? {
            if used + 2 > Self.wordCount {
                guard SecureRandom.fill(UnsafeMutableRawBufferPointer(words)) else { return nil }
                used = 0
            }
            defer {
                // Handed out once: nothing keeps a copy.
                words[used] = 0
                words[used + 1] = 0
                used += 2
            }
            return (words[used], words[used + 1])
        }
    }
}
