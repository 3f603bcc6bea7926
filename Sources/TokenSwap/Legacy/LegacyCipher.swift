import COpenSSL

/// The OpenSSL EVP operations the legacy formats are made of. Every failure (OpenSSL
/// refusing, a wrong padding, a wrong tag) is nil: a legacy token either opens or is
/// `invalid_grant`, and nothing here says why.
enum LegacyCipher {
    /// `EVP_BytesToKey` with MD5, as OpenSSL's `enc` without `-pbkdf2`, Ruby's
    /// `Cipher#pkcs5_keyivgen`, Node's `createCipher` and CryptoJS derive key and IV from a
    /// password. `cipher` gives the key and IV lengths.
    static func bytesToKey(
        cipher: OpaquePointer, password: [UInt8], salt: [UInt8]?, iterations: Int32
    ) -> (key: [UInt8], iv: [UInt8])? {
        let keyLength = Int(EVP_CIPHER_get_key_length(cipher))
        let ivLength = Int(EVP_CIPHER_get_iv_length(cipher))
        guard salt == nil || salt?.count == 8, let passwordLength = Int32(exactly: password.count)
        else { return nil }
        var key = [UInt8](repeating: 0, count: keyLength)
        var iv = [UInt8](repeating: 0, count: max(ivLength, 1))
        let written = EVP_BytesToKey(
            cipher, EVP_md5(), salt, password, passwordLength, iterations, &key, &iv)
        guard Int(written) == keyLength else { return nil }
        return (key, Array(iv.prefix(ivLength)))
    }

    /// Decrypts `ciphertext`; with `tag`, as an AEAD cipher (GCM) whose tag must verify.
    /// `padding`: PKCS#7 padding is checked and removed (CBC), or there is none (CTR).
    static func decrypt(
        cipher: OpaquePointer, key: [UInt8], iv: [UInt8], ciphertext: [UInt8],
        tag: [UInt8]? = nil, padding: Bool
    ) -> [UInt8]? {
        guard !ciphertext.isEmpty, let length = Int32(exactly: ciphertext.count),
            let context = EVP_CIPHER_CTX_new()
        else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_DecryptInit_ex(context, cipher, nil, nil, nil) == 1,
            EVP_CIPHER_CTX_get_key_length(context) == Int32(key.count),
            tag == nil
                || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(iv.count), nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, iv) == 1,
            EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0) == 1
        else { return nil }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 32)
        var written: Int32 = 0
        guard EVP_DecryptUpdate(context, &plaintext, &written, ciphertext, length) == 1 else {
            return nil
        }
        if var tag {
            guard
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), &tag) == 1
            else { return nil }
        }
        var finalWritten: Int32 = 0
        let status = plaintext.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(
                context, buffer.baseAddress.map { $0 + Int(written) }, &finalWritten)
        }
        // A bad padding or tag: the bytes written are garbage or unauthenticated; wipe them.
        guard status == 1 else {
            OPENSSL_cleanse(&plaintext, plaintext.count)
            return nil
        }
        return Array(plaintext.prefix(Int(written + finalWritten)))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil) == 1,
            length == 32
        else { return nil }
        return digest
    }
}
