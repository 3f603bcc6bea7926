import COpenSSL

/// The OpenSSL EVP operations the legacy refresh-token formats of other swap services are
/// made of (CONTRACT §9; the formats themselves are `TokenSwap`'s `LegacyFormat`). Every
/// failure (OpenSSL refusing, a wrong padding, a wrong tag) is nil: a legacy token either
/// opens or is `invalid_grant`, and nothing here says why.
package enum LegacyCipher {
    /// The ciphers whose key and IV come from a password alone (`EVP_BytesToKey`).
    package enum PasswordCipher: Sendable {
        /// Ruby `encrypted_strings`' `SymmetricCipher` default.
        case desEDE3CBC
        /// Node `crypto.createCipher('aes-256-ctr', …)`: no padding.
        case aes256CTR
        /// Node `crypto.createCipher('aes-256-cbc', …)`.
        case aes256CBC

        var evp: OpaquePointer? {
            switch self {
            case .desEDE3CBC: EVP_des_ede3_cbc()
            case .aes256CTR: EVP_aes_256_ctr()
            case .aes256CBC: EVP_aes_256_cbc()
            }
        }

        /// CTR is a stream mode: there is no padding to check.
        var isPadded: Bool { self != .aes256CTR }
    }

    /// Key ‖ IV derived from `password` with `EVP_BytesToKey` (MD5, no salt): what
    /// `decrypt(_:keyMaterial:ciphertext:)` takes, derived once per configured secret
    /// rather than per token (Ruby's 2048 MD5 rounds would otherwise run for every token
    /// that does not open natively). nil if OpenSSL fails.
    package static func keyMaterial(
        _ cipher: PasswordCipher, password: [UInt8], iterations: Int32
    ) -> [UInt8]? {
        guard let evp = cipher.evp,
            let (key, iv) = bytesToKey(
                cipher: evp, password: password, salt: nil, iterations: iterations)
        else { return nil }
        return key + iv
    }

    /// Decrypts `ciphertext` under `keyMaterial` (key ‖ IV, from `keyMaterial(_:…)`).
    package static func decrypt(
        _ cipher: PasswordCipher, keyMaterial: [UInt8], ciphertext: [UInt8]
    ) -> [UInt8]? {
        guard let evp = cipher.evp else { return nil }
        let keyLength = Int(EVP_CIPHER_get_key_length(evp))
        guard keyMaterial.count > keyLength else { return nil }
        return decrypt(
            cipher: evp, key: Array(keyMaterial.prefix(keyLength)),
            iv: Array(keyMaterial.dropFirst(keyLength)), ciphertext: ciphertext,
            padding: cipher.isPadded)
    }

    /// AES-256-GCM with `nonce`, no associated data; the tag must verify.
    package static func decryptAES256GCM(
        key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) -> [UInt8]? {
        guard key.count == 32, let cipher = EVP_aes_256_gcm() else { return nil }
        return decrypt(
            cipher: cipher, key: key, iv: nonce, ciphertext: ciphertext, tag: tag, padding: false)
    }

    /// OpenSSL `enc`'s salted format as CryptoJS writes it: AES-256-CBC under
    /// `EVP_BytesToKey(MD5, salt, 1)` of the password.
    package static func decryptSaltedAES256CBC(
        password: [UInt8], salt: [UInt8], ciphertext: [UInt8]
    ) -> [UInt8]? {
        guard let cipher = EVP_aes_256_cbc(),
            let (key, iv) = bytesToKey(
                cipher: cipher, password: password, salt: salt, iterations: 1)
        else { return nil }
        return decrypt(cipher: cipher, key: key, iv: iv, ciphertext: ciphertext, padding: true)
    }

    /// `EVP_BytesToKey` with MD5, as OpenSSL's `enc` without `-pbkdf2`, Ruby's
    /// `Cipher#pkcs5_keyivgen`, Node's `createCipher` and CryptoJS derive key and IV from a
    /// password. `cipher` gives the key and IV lengths.
    private static func bytesToKey(
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
    private static func decrypt(
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

}
