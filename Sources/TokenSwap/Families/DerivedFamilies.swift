import Sealing

/// The grant family of a token that carries none (CONTRACT §14): one sealed before families
/// existed (layout version 1), or a legacy token (§9). Its family is derived from the token
/// itself, generation 0, so every copy of that token, refreshed on any copy of the service
/// at any time, lands in one family: signing out (revoking any token of it) ends the copy a
/// thief kept, and reuse detection sees an old copy come back. A random family at each
/// refresh, as before, gave every copy a family of its own.
///
/// The family id is the first 16 bytes of HMAC-SHA-256 over the provider's name and the
/// provider's refresh token (the token's plaintext, the same in every seal of it), under a
/// key derived from the key ring (HKDF, `KeyRing.derivedKeys`): nobody without the ring can
/// compute it, and it names nothing outside the seal. The key is the one derived from the
/// ring key that opened the token, which stays in the ring for as long as the token opens;
/// a legacy token, which no ring key opened, uses the ring's last (oldest) key's, the one a
/// rotation keeps longest.
struct DerivedFamilies: Sendable {
    /// What the HKDF `info` names: no other derived key equals these.
    static let derivationInfo = "tokenswap grant family of a token without one v1"

    /// The derived keys by the kid of the ring key they come from.
    private let keys: [String: [UInt8]]
    /// The oldest ring key's derived key: a legacy token's.
    private let legacyKey: [UInt8]

    /// Nil if OpenSSL cannot derive.
    init?(keyRing: KeyRing) {
        guard let derived = keyRing.derivedKeys(info: Self.derivationInfo),
            let oldest = derived.last, derived.count == keyRing.keyIDs.count
        else { return nil }
        keys = Dictionary(zip(keyRing.keyIDs, derived), uniquingKeysWith: { first, _ in first })
        legacyKey = oldest
    }

    /// The family of `opened` at `provider`, starting at `startTime`, generation 0 and
    /// unbound (a token without a family was sealed before binding existed): `opened.grant`
    /// when it has one. Nil only if OpenSSL cannot compute the digest.
    func family(of opened: OpenedToken, provider: String, startTime: UInt64) -> SealedGrant? {
        if let grant = opened.grant { return grant }
        let key = keys[opened.keyID] ?? legacyKey
        // The name, a zero byte (which no provider name holds), the token: no two pairs of
        // name and token give one message.
        let message = Array(provider.utf8) + [0] + opened.plaintext
        guard let digest = SHA256.hmac(key: key, message: message) else { return nil }
        return SealedGrant(
            thumbprint: nil, familyID: Array(digest.prefix(SealedGrant.familyIDByteCount)),
            startTime: startTime, generation: 0)
    }
}
