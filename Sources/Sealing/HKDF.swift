/// HKDF with HMAC-SHA-256 (RFC 5869): derives keys for purposes other than sealing from
/// the key ring's keys, so that one secret per ring entry serves every purpose and no
/// derived key reveals another (the DPoP nonce key, CONTRACT §13).
package enum HKDF {
    /// At most 255 blocks of output (RFC 5869 §2.3).
    package static let maxOutputByteCount = 255 * SHA256.byteCount

    /// RFC 5869 §2.2's extract: the pseudorandom key from `salt` (a string of
    /// `SHA256.byteCount` zero bytes when empty) and the input key material.
    package static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8]? {
        let salt = salt.isEmpty ? [UInt8](repeating: 0, count: SHA256.byteCount) : salt
        return SHA256.hmac(key: salt, message: inputKeyMaterial)
    }

    /// RFC 5869 §2.3's expand: `byteCount` bytes of output for `info`; nil when more than
    /// `maxOutputByteCount` are asked for, the key is longer than HMAC's block, or
    /// OpenSSL fails.
    package static func expand(pseudorandomKey: [UInt8], info: [UInt8], byteCount: Int)
        -> [UInt8]?
    {
        guard (0...maxOutputByteCount).contains(byteCount) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(byteCount)
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < byteCount {
            guard
                let block = SHA256.hmac(key: pseudorandomKey, message: previous + info + [counter])
            else { return nil }
            output.append(contentsOf: block.prefix(byteCount - output.count))
            previous = block
            counter &+= 1
        }
        return output
    }

    /// Extract then expand (RFC 5869 §2).
    package static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8] = [], info: [UInt8], byteCount: Int
    ) -> [UInt8]? {
        guard let prk = extract(salt: salt, inputKeyMaterial: inputKeyMaterial) else { return nil }
        return expand(pseudorandomKey: prk, info: info, byteCount: byteCount)
    }
}
