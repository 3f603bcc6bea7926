extension KeyRing {
    /// A key for another purpose than sealing, derived from each key of the ring with
    /// HKDF-SHA-256 (RFC 5869), `info` naming the purpose; the active key's first. So a
    /// value made with one copy's active key is checked by every copy that has that key
    /// in its ring, during a rotation too, with no secret but the ring (the stateless
    /// DPoP nonces of CONTRACT §13). Nil if OpenSSL fails.
    package func derivedKeys(info: String, byteCount: Int = 32) -> [[UInt8]]? {
        var derived: [[UInt8]] = []
        for key in keys {
            let material = key.withBytes { Array($0) }
            guard
                let output = HKDF.deriveKey(
                    inputKeyMaterial: material, salt: Array("tokenswap".utf8),
                    info: Array(info.utf8), byteCount: byteCount)
            else { return nil }
            derived.append(output)
        }
        return derived
    }
}
