/// A refresh-token format of another swap service that tokenswap can open during a
/// migration (CONTRACT §9). Each case's derivation and layout is in
/// `LegacyFormat+Decryption.swift`.
public enum LegacyFormat: String, Sendable, Hashable, CaseIterable {
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
    public var isAuthenticated: Bool { self == .spotifyAPIServerGCM }
}
