import COpenSSL

extension LegacyFormat {
    /// The plaintext of `token` (already repaired) under `secret`, exactly as the old
    /// service encrypted it (CONTRACT §9), or nil.
    func decrypt(_ token: String, secret: [UInt8]) -> [UInt8]? {
        switch self {
        case .rubyEncryptedStrings:
            // encrypted_strings' SymmetricCipher: DES-EDE3-CBC, `pkcs5_keyivgen(password)`
            // (EVP_BytesToKey, MD5, no salt, 2048 iterations), `pack('m')` base64.
            guard let bytes = LegacyTokenText.base64(token), let cipher = EVP_des_ede3_cbc()
            else { return nil }
            return Self.passwordDecrypt(
                bytes, cipher: cipher, secret: secret, salt: nil, iterations: 2048, padding: true)
        case .nodeCreateCipherCTR, .nodeCreateCipherCBC:
            // Node's createCipher: EVP_BytesToKey(MD5, no salt, 1 iteration), hex output.
            let cipher = self == .nodeCreateCipherCTR ? EVP_aes_256_ctr() : EVP_aes_256_cbc()
            guard let bytes = LegacyTokenText.hex(token), let cipher else { return nil }
            return Self.passwordDecrypt(
                bytes, cipher: cipher, secret: secret, salt: nil, iterations: 1,
                padding: self == .nodeCreateCipherCBC)
        case .spotifyAPIServerGCM:
            // nonce(12) | ciphertext | tag(16), key = SHA-256(secret), no associated data.
            guard let bytes = LegacyTokenText.base64(token), bytes.count > 12 + 16,
                let key = LegacyCipher.sha256(secret), let cipher = EVP_aes_256_gcm()
            else { return nil }
            return LegacyCipher.decrypt(
                cipher: cipher, key: key, iv: Array(bytes.prefix(12)),
                ciphertext: Array(bytes[12..<(bytes.count - 16)]), tag: Array(bytes.suffix(16)),
                padding: false)
        case .cryptoJSAES:
            // "Salted__" | salt(8) | AES-256-CBC ciphertext; EVP_BytesToKey(MD5, salt, 1).
            let magic = Array("Salted__".utf8)
            guard let bytes = LegacyTokenText.base64(token), bytes.count > 16,
                Array(bytes.prefix(8)) == magic, let cipher = EVP_aes_256_cbc()
            else { return nil }
            return Self.passwordDecrypt(
                Array(bytes.dropFirst(16)), cipher: cipher, secret: secret,
                salt: Array(bytes[8..<16]), iterations: 1, padding: true)
        }
    }

    private static func passwordDecrypt(
        _ ciphertext: [UInt8], cipher: OpaquePointer, secret: [UInt8], salt: [UInt8]?,
        iterations: Int32, padding: Bool
    ) -> [UInt8]? {
        guard
            let (key, iv) = LegacyCipher.bytesToKey(
                cipher: cipher, password: secret, salt: salt, iterations: iterations)
        else { return nil }
        return LegacyCipher.decrypt(
            cipher: cipher, key: key, iv: iv, ciphertext: ciphertext, padding: padding)
    }
}
