import Sealing

/// One entry of `TOKENSWAP_<NAME>_LEGACY`: a format and the old service's secret.
package struct LegacyDecoder: Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    package let format: LegacyFormat
    let secret: Secret
    /// The secret file's canonical path (symbolic links and `..` resolved), when the
    /// decoder came from a setting: one file may serve one provider only (CONTRACT §9).
    let secretFile: String?
    /// Derived from the secret once (`LegacyFormat.keyMaterial`); as secret as it is.
    private let keyMaterial: [UInt8]

    package init(format: LegacyFormat, secret: Secret, secretFile: String? = nil) {
        self.format = format
        self.secret = secret
        self.secretFile = secretFile
        self.keyMaterial = format.keyMaterial(secret: Array(secret.revealed.utf8))
    }

    /// The provider refresh token inside `token`, if `token` is this format under this
    /// secret (after the transport repairs) and its plaintext has the provider's shape.
    package func open(_ token: String, shape: RefreshTokenShape) -> [UInt8]? {
        guard
            let plaintext = format.decrypt(
                LegacyTokenText.repaired(token), keyMaterial: keyMaterial),
            shape.matches(plaintext)
        else { return nil }
        return plaintext
    }

    /// SHA-256 of `ENCRYPTION_SECRET` in Spotify's `spotify_token_swap.rb`, which shipped
    /// publicly and was deployed unchanged by its copies. Compared by hash, so the binary
    /// does not carry one more copy of it.
    static let publishedSpotifyExampleSecretSHA256: [UInt8] = [
        0xf8, 0xfb, 0x1f, 0x36, 0x3b, 0xe2, 0xc0, 0x6c, 0xf8, 0x14, 0x37, 0x3e, 0xe6, 0xb1,
        0x2c, 0xe2, 0xbc, 0x50, 0x6e, 0x8e, 0x61, 0x71, 0x22, 0xe1, 0x22, 0x0c, 0x8e, 0xa0,
        0x51, 0xcb, 0xf0, 0x40,
    ]

    /// Whether the secret is the one anyone can read in Spotify's example: every token
    /// made with it is readable by anyone who has one.
    package var usesPublishedSecret: Bool {
        SHA256.digest(Array(secret.revealed.utf8))
            == Self.publishedSpotifyExampleSecretSHA256
    }

    package var description: String { "\(format.rawValue):<redacted>" }
    package var debugDescription: String { description }
    /// No children: `dump` and reflection-based printing see neither secret nor key.
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
