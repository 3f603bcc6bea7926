import COpenSSL

/// AES-256-GCM through OpenSSL's EVP interface with a 96-bit nonce and a 16-byte tag.
///
/// Work happens in a keyed `EVP_CIPHER_CTX`: keying once and re-initialising only the
/// nonce per operation skips the AES key expansion, the GHASH table set-up and an
/// allocation per call (`SealingKey` pools keyed contexts). A context is used by one
/// thread at a time. Every OpenSSL return is checked.
enum AES256GCM {
    static let keyByteCount = 32
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// A new context keyed with `key`, or nil if OpenSSL fails. The caller owns it and
    /// releases it with `EVP_CIPHER_CTX_free`, which also wipes the key schedule.
    static func keyedContext(key: UnsafeRawBufferPointer) -> OpaquePointer? {
        guard key.count == keyByteCount, let cipher = GCMCipher.shared,
            let context = EVP_CIPHER_CTX_new()
        else { return nil }
        guard
            EVP_EncryptInit_ex2(
                context, cipher.pointer, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                nil, nil) == 1
        else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        return context
    }

    /// Encrypts `plaintext` into `ciphertext` (same length) and writes the tag into `tag`.
    static func seal(
        in context: OpaquePointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard nonce.count == nonceByteCount, tag.count == tagByteCount,
            ciphertext.count == plaintext.count,
            // Cipher and key nil: keep both, set the nonce (GCM's default IV length is
            // 12 bytes, so no EVP_CTRL_GCM_SET_IVLEN) and reset the GHASH state.
            EVP_EncryptInit_ex2(
                context, nil, nil, nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil)
                == 1
        else { throw .cryptoUnavailable }
        try update(context, input: associatedData, output: nil, encrypting: true)
        try update(context, input: plaintext, output: ciphertext, encrypting: true)
        var finalWritten: Int32 = 0
        var scratch: UInt8 = 0
        // GCM is a stream mode: Final writes nothing, but the API wants a valid pointer.
        guard EVP_EncryptFinal_ex(context, &scratch, &finalWritten) == 1, finalWritten == 0,
            EVP_CIPHER_CTX_ctrl(
                context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), tag.baseAddress) == 1
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
        guard
            EVP_DecryptInit_ex2(
                context, nil, nil, nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil)
                == 1
        else { throw .cryptoUnavailable }
        try update(context, input: associatedData, output: nil, encrypting: false)
        try update(context, input: ciphertext, output: plaintext, encrypting: false)
        // SET_TAG copies the tag; OpenSSL takes a non-const pointer but does not write it.
        guard
            EVP_CIPHER_CTX_ctrl(
                context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount),
                UnsafeMutableRawPointer(mutating: tag.baseAddress)) == 1
        else { throw .cryptoUnavailable }
        var finalWritten: Int32 = 0
        var scratch: UInt8 = 0
        // Final compares the computed tag with the expected one in constant time
        // (CRYPTO_memcmp); a mismatch is the only input-driven failure here.
        guard EVP_DecryptFinal_ex(context, &scratch, &finalWritten) == 1, finalWritten == 0
        else { throw .invalidToken }
    }

    /// One-shot seal under a raw key (a fresh context), for known-answer tests.
    static func seal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard let context = keyedContext(key: key) else { throw .cryptoUnavailable }
        defer { EVP_CIPHER_CTX_free(context) }
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
        defer { EVP_CIPHER_CTX_free(context) }
        try open(
            in: context, nonce: nonce, associatedData: associatedData, ciphertext: ciphertext,
            tag: tag, plaintext: plaintext)
    }

    /// Feeds `input` through the context; a nil `output` marks it as associated data.
    private static func update(
        _ context: OpaquePointer, input: UnsafeRawBufferPointer,
        output: UnsafeMutableRawBufferPointer?, encrypting: Bool
    ) throws(SealingError) {
        guard input.count > 0 else { return }
        guard let inputBase = input.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let length = Int32(exactly: input.count)
        else { throw .cryptoUnavailable }
        let outputBase = output?.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var written: Int32 = 0
        let status =
            encrypting
            ? EVP_EncryptUpdate(context, outputBase, &written, inputBase, length)
            : EVP_DecryptUpdate(context, outputBase, &written, inputBase, length)
        // For associated data OpenSSL reports the bytes absorbed; for text, bytes written.
        guard status == 1, Int(written) == input.count else { throw .cryptoUnavailable }
    }
}
