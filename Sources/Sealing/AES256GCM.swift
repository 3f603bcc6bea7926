import COpenSSL

/// AES-256-GCM through OpenSSL's EVP interface with a 96-bit nonce and a 16-byte tag.
///
/// One `EVP_CIPHER_CTX` per call: a context holds key schedule and GHASH state, so
/// sharing one across threads would need a lock; a fresh one is cheap next to the
/// cipher work and keeps every call independent. Every OpenSSL return is checked.
enum AES256GCM {
    static let keyByteCount = 32
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// Encrypts `plaintext` into `ciphertext` (same length) and writes the tag into `tag`.
    static func seal(
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard key.count == keyByteCount, nonce.count == nonceByteCount,
            tag.count == tagByteCount, ciphertext.count == plaintext.count,
            let cipher = GCMCipher.shared, let context = EVP_CIPHER_CTX_new()
        else { throw .cryptoUnavailable }
        defer { EVP_CIPHER_CTX_free(context) }

        // The default GCM IV length is 12 bytes, so no EVP_CTRL_GCM_SET_IVLEN is needed.
        guard
            EVP_EncryptInit_ex2(
                context, cipher.pointer, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
        else { throw .cryptoUnavailable }
        try feedAssociatedData(associatedData, into: context, encrypting: true)

        var written: Int32 = 0
        if plaintext.count > 0 {
            guard
                let input = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let output = ciphertext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let length = Int32(exactly: plaintext.count),
                EVP_EncryptUpdate(context, output, &written, input, length) == 1,
                Int(written) == plaintext.count
            else { throw .cryptoUnavailable }
        }
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
        key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer, plaintext: UnsafeMutableRawBufferPointer
    ) throws(SealingError) {
        guard key.count == keyByteCount, nonce.count == nonceByteCount,
            tag.count == tagByteCount, ciphertext.count == plaintext.count
        else { throw .invalidToken }
        guard let cipher = GCMCipher.shared, let context = EVP_CIPHER_CTX_new()
        else { throw .cryptoUnavailable }
        defer { EVP_CIPHER_CTX_free(context) }

        guard
            EVP_DecryptInit_ex2(
                context, cipher.pointer, key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), nil) == 1
        else { throw .cryptoUnavailable }
        try feedAssociatedData(associatedData, into: context, encrypting: false)

        var written: Int32 = 0
        if ciphertext.count > 0 {
            guard
                let input = ciphertext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let output = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                let length = Int32(exactly: ciphertext.count),
                EVP_DecryptUpdate(context, output, &written, input, length) == 1,
                Int(written) == ciphertext.count
            else { throw .cryptoUnavailable }
        }
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

    private static func feedAssociatedData(
        _ associatedData: UnsafeRawBufferPointer, into context: OpaquePointer,
        encrypting: Bool
    ) throws(SealingError) {
        guard associatedData.count > 0 else { return }
        guard let input = associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let length = Int32(exactly: associatedData.count)
        else { throw .cryptoUnavailable }
        var written: Int32 = 0
        // A nil output buffer tells EVP the bytes are associated data, not plaintext.
        let status =
            encrypting
            ? EVP_EncryptUpdate(context, nil, &written, input, length)
            : EVP_DecryptUpdate(context, nil, &written, input, length)
        guard status == 1 else { throw .cryptoUnavailable }
    }
}
