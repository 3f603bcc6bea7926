import Sealing

/// A refresh-token format of another swap service that tokenswap can open during a
/// migration (CONTRACT §9). Each case's derivation and layout is below (`keyMaterial`,
/// `decrypt`).
package enum LegacyFormat: String, Sendable, Hashable, CaseIterable {
    /// Spotify's `spotify_token_swap.rb` and bih: the `encrypted_strings` gem's default.
    case rubyEncryptedStrings = "ruby-encrypted-strings"
    /// Node `crypto.createCipher('aes-256-ctr', secret)`, hex.
    case nodeCreateCipherCTR = "node-create-cipher-ctr"
    /// Node `crypto.createCipher('aes-256-cbc', secret)`, hex.
    case nodeCreateCipherCBC = "node-create-cipher-cbc"
    /// spotifyapiserver: AES-256-GCM under SHA-256 of the secret, base64url.
    case spotifyAPIServerGCM = "spotifyapiserver-gcm"
    /// CryptoJS `AES.encrypt(text, passphrase)`: OpenSSL's `Salted__` format, base64.
    case cryptoJSAES = "cryptojs-aes"

    /// Whether a wrong key or a damaged token is detected by the cipher itself. For the
    /// others, a wrong key yields garbage that only the token-shape check stops.
    package var isAuthenticated: Bool { self == .spotifyAPIServerGCM }
}

extension LegacyFormat {
    /// What `decrypt` needs from the secret, derived once per configured secret rather
    /// than per token (Ruby's 2048 MD5 rounds would otherwise run for every token that
    /// does not open natively): key ‖ IV for the unsalted password formats, the key for
    /// GCM, the secret itself for CryptoJS (its salt is in each token). Empty if OpenSSL
    /// fails, and then nothing opens.
    package func keyMaterial(secret: [UInt8]) -> [UInt8] {
        switch self {
        case .rubyEncryptedStrings, .nodeCreateCipherCTR, .nodeCreateCipherCBC:
            guard let cipher = passwordCipher else { return [] }
            return LegacyCipher.keyMaterial(
                cipher, password: secret,
                iterations: self == .rubyEncryptedStrings ? 2048 : 1) ?? []
        case .spotifyAPIServerGCM:
            return SHA256.digest(secret) ?? []
        case .cryptoJSAES:
            return secret
        }
    }

    /// The plaintext of `token` (already repaired) under `keyMaterial`, exactly as the old
    /// service encrypted it (CONTRACT §9), or nil.
    package func decrypt(_ token: String, keyMaterial: [UInt8]) -> [UInt8]? {
        switch self {
        case .rubyEncryptedStrings, .nodeCreateCipherCTR, .nodeCreateCipherCBC:
            // encrypted_strings' SymmetricCipher: DES-EDE3-CBC, `pkcs5_keyivgen(password)`
            // (EVP_BytesToKey, MD5, no salt, 2048 iterations), `pack('m')` base64.
            // Node's createCipher: EVP_BytesToKey(MD5, no salt, 1 iteration), hex output.
            let bytes =
                self == .rubyEncryptedStrings
                ? LegacyTokenText.base64(token) : LegacyTokenText.hex(token)
            guard let bytes, let cipher = passwordCipher else { return nil }
            return LegacyCipher.decrypt(cipher, keyMaterial: keyMaterial, ciphertext: bytes)
        case .spotifyAPIServerGCM:
            // nonce(12) | ciphertext | tag(16), key = SHA-256(secret), no associated data.
            guard let bytes = LegacyTokenText.base64(token), bytes.count > 12 + 16 else {
                return nil
            }
            return LegacyCipher.decryptAES256GCM(
                key: keyMaterial, nonce: Array(bytes.prefix(12)),
                ciphertext: Array(bytes[12..<(bytes.count - 16)]), tag: Array(bytes.suffix(16)))
        case .cryptoJSAES:
            // "Salted__" | salt(8) | AES-256-CBC ciphertext; EVP_BytesToKey(MD5, salt, 1).
            let magic = Array("Salted__".utf8)
            guard let bytes = LegacyTokenText.base64(token), bytes.count > 16,
                Array(bytes.prefix(8)) == magic
            else { return nil }
            return LegacyCipher.decryptSaltedAES256CBC(
                password: keyMaterial, salt: Array(bytes[8..<16]),
                ciphertext: Array(bytes.dropFirst(16)))
        }
    }

    /// The cipher of the formats whose key and IV come from the password alone.
    private var passwordCipher: LegacyCipher.PasswordCipher? {
        switch self {
        case .rubyEncryptedStrings: .desEDE3CBC
        case .nodeCreateCipherCTR: .aes256CTR
        case .nodeCreateCipherCBC: .aes256CBC
        case .spotifyAPIServerGCM, .cryptoJSAES: nil
        }
    }
}
