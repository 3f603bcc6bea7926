import COpenSSL

/// AES-256-GCM through OpenSSL's EVP cipher API with a 96-bit nonce and a 16-byte tag.
///
/// Work happens in a keyed context: keying once and setting only the nonce per operation
/// skips the AES key expansion, the GHASH table set-up and an allocation per call
/// (`SealingKey` pools keyed contexts; gcm.c). A context is used by one thread at a time.
/// Every OpenSSL return is checked.
enum AES256GCM {
    static let keyByteCount = 32
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// A new context keyed with `key`, or nil if OpenSSL fails. The caller owns it and
    /// releases it with `tokenswap_gcm_free`, which also wipes the key schedule.
    static func keyedContext(key: UnsafeRawBufferPointer) -> OpaquePointer? {
        guard key.count == keyByteCount,
            let base = key.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return nil }
        return tokenswap_gcm_new(base)
    }

    /// Encrypts `plaintext` into `ciphertext` (same length) and writes the tag into `tag`.
    static func seal(
        in context: OpaquePointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard nonce.count == nonceByteCount, tag.count == tagByteCount,
            ciphertext.count == plaintext.count,
            tokenswap_gcm_seal(
                context, bytes(nonce), bytes(associatedData), associatedData.count,
                bytes(plaintext), plaintext.count, bytes(ciphertext), bytes(tag)) == 1
        else { throw .cryptoUnavailable }
    }

    /// Decrypts `ciphertext` into `plaintext` (same length) if `tag` authenticates it
    /// together with `associatedData`. On `.invalidToken` the bytes already written to
    /// `plaintext` are unauthenticated; the caller must wipe them, never return them.
    static func open(
        in context: OpaquePointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, plaintext: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard nonce.count == nonceByteCount, tag.count == tagByteCount,
            ciphertext.count == plaintext.count
        else { throw .invalidToken }
        // A mismatch of the tag (0) is the only input-driven failure here.
        switch tokenswap_gcm_open(
            context, bytes(nonce), bytes(associatedData), associatedData.count,
            bytes(ciphertext), ciphertext.count, bytes(tag), bytes(plaintext))
        {
        case 1: return
        case 0: throw .invalidToken
        default: throw .cryptoUnavailable
        }
    }

    /// One-shot seal under a raw key (a fresh context), for known-answer tests.
    static func seal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard let context = keyedContext(key: key) else { throw .cryptoUnavailable }
        defer { tokenswap_gcm_free(context) }
        try seal(
            in: context, nonce: nonce, associatedData: associatedData, plaintext: plaintext,
            ciphertext: ciphertext, tag: tag)
    }

    /// One-shot open under a raw key (a fresh context), for known-answer tests.
    static func open(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, plaintext: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard let context = keyedContext(key: key) else { throw .cryptoUnavailable }
        defer { tokenswap_gcm_free(context) }
        try open(
            in: context, nonce: nonce, associatedData: associatedData, ciphertext: ciphertext,
            tag: tag, plaintext: plaintext)
    }

    /// The first byte of `buffer` as OpenSSL's `unsigned char *` (nil for an empty one,
    /// which OpenSSL does not read).
    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    private static func bytes(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<
        UInt8
    >? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
